import { datadogSender, parseDatadogTitle } from '../../../../src/domain/ingest/native/datadog';
import { INGEST_LIMITS } from '../../../../src/domain/ingest/limits';
import { fixtureBody } from '../native-fixtures';

const normalise = (body: unknown) => datadogSender.normalise(body, {})[0];
const withTitle = (title: string, extra: Record<string, unknown> = {}) => ({ ...fixtureBody('datadog/triggered.json'), title, ...extra });

describe('Datadog default payload', () => {
  it('when the title has a transition and scope, then both are split off the monitor name', () => {
    expect(parseDatadogTitle('[Triggered on {host:web-07}] Root volume almost full')).toEqual({
      transition: 'Triggered',
      scope: 'host:web-07',
      base: 'Root volume almost full',
    });
    expect(parseDatadogTitle('[P1] [Warn on {host:a,device:/dev/x}] Disk')).toEqual({ transition: 'Warn', scope: 'host:a,device:/dev/x', base: 'Disk' });
    expect(parseDatadogTitle('[No Data] Heartbeat')).toEqual({ transition: 'No Data', base: 'Heartbeat' });
    expect(parseDatadogTitle('Plain title')).toEqual({ base: 'Plain title' });
  });

  it('when Triggered and Recovered notifications arrive, then they share the synthesized key org:base:scope', () => {
    const keys = ['datadog/triggered.json', 'datadog/recovered.json'].map((f) => normalise(fixtureBody(f)).dedupKey);
    expect(keys).toEqual(['731244:Root volume almost full:host:web-07', '731244:Root volume almost full:host:web-07']);
  });

  it('when the title has no scope, then the key ends with an empty scope and the title has no suffix', () => {
    const event = normalise(withTitle('[Triggered] Queue backlog'));
    expect(event).toMatchObject({ title: 'Queue backlog', dedupKey: '731244:Queue backlog:', severity: 'critical', action: 'trigger' });
  });

  it.each([
    ['Warn', 'warning', 'trigger'],
    ['No Data', 'warning', 'trigger'],
    ['Re-Triggered', 'critical', 'trigger'],
    ['Triggered', 'critical', 'trigger'],
    ['Recovered', 'info', 'resolve'],
    ['Warn Recovered', 'info', 'resolve'],
  ])('when the transition is %s, then severity is %s and action %s', (transition, severity, action) => {
    expect(normalise(withTitle(`[${transition} on {host:web-07}] Root volume almost full`))).toMatchObject({ severity, action });
  });

  it('when the customer template adds alert_transition and aggreg_key, then those win', () => {
    const event = normalise(withTitle('[Triggered on {host:web-07}] Root volume almost full', { alert_transition: 'Recovered', aggreg_key: 'a1b2c3' }));
    expect(event).toMatchObject({ action: 'resolve', dedupKey: 'a1b2c3' });
    expect(normalise(withTitle('[Triggered] X', { alert_id: '98127734' })).dedupKey).toBe('98127734');
  });

  it('when the body is wrapped in %%% markers, then the message has them stripped', () => {
    const message = normalise(fixtureBody('datadog/triggered.json')).message ?? '';
    expect(message.startsWith('Root filesystem on web-07')).toBe(true);
    expect(message).not.toContain('%%%');
  });

  it.each([
    ['%%%\n  Disk full \n%%%', 'Disk full'],
    ['%%%Disk full%%%', 'Disk full'],
    ['Disk full', 'Disk full'],
    ['%%% a %%% b %%%', 'a %%% b'],
    ['%%%%%', '%%'],
    ['%%%  \n %%%', undefined],
    ['%%%', undefined],
  ])('when the body is %j, then the message is %j (only the outer fences and the blanks beside them go)', (body, message) => {
    expect(normalise({ ...fixtureBody('datadog/triggered.json'), body }).message).toBe(message);
  });

  it('when the body holds a long run of blanks between words, then the message keeps it whole', () => {
    const body = `a${' '.repeat(INGEST_LIMITS.nativeField - 2)}b`;
    expect(normalise({ ...fixtureBody('datadog/triggered.json'), body }).message === body).toBe(true);
  });
});
