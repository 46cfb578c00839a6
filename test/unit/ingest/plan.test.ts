import { INGEST_LIMITS } from '../../../src/domain/ingest/limits';
import { planIngest } from '../../../src/domain/ingest/plan';
import { loadFixture } from './native-fixtures';

describe('ingestion plan', () => {
  it('when the body is Form A, then one trigger with the raw dedup_key', () => {
    expect(planIngest({ title: 't', dedup_key: 'k', source: 'cron' }, {})).toEqual({
      ok: true,
      sender: 'form-a',
      items: [
        { action: 'trigger', title: 't', message: null, description: null, severity: 'MEDIUM', dedupKey: 'k', sender: 'form-a', metadata: { source: 'cron' } },
      ],
    });
  });

  it('when a native trigger arrives, then its severity is on the incident scale and its key is scoped by sender', () => {
    const { body, headers } = loadFixture('alertmanager/firing.json');
    const plan = planIngest(body, headers);
    expect(plan.ok && plan.items.map((i) => [i.action, i.severity, i.dedupKey, i.sender])).toEqual([
      ['trigger', 'CRITICAL', 'alertmanager:7fa3840144758300', 'alertmanager'],
    ]);
  });

  it('when a native resolve arrives, then a resolve item with the same scoped key', () => {
    const { body, headers } = loadFixture('grafana/resolved.json');
    const plan = planIngest(body, headers);
    expect(plan.ok && plan.items.map((i) => [i.action, i.dedupKey])).toEqual([['resolve', 'grafana:13986aadcf7db5fe']]);
  });

  it('when the sender asks to ignore (New Relic acknowledged), then no items', () => {
    const { body, headers } = loadFixture('newrelic/activated.json');
    const acked = { ...(body as Record<string, unknown>), state: 'ACKNOWLEDGED' };
    expect(planIngest(acked, headers)).toEqual({ ok: true, sender: 'newrelic', items: [] });
  });

  it('when AWS SNS posts a CloudWatch alarm, then a trigger; a subscription confirmation asks to confirm', () => {
    const alarm = loadFixture('sns/cloudwatch_alarm.json');
    const plan = planIngest(alarm.body, alarm.headers);
    expect(plan.ok && plan.items.map((i) => [i.action, i.sender])).toEqual([['trigger', 'aws-sns']]);
    const sub = loadFixture('sns/subscription_confirmation.json');
    expect(planIngest(sub.body, sub.headers)).toEqual({ ok: true, sender: 'aws-sns', items: [], confirm: true });
  });

  it('when the body is unknown JSON without title or message, then the Form A error', () => {
    expect(planIngest({ foo: 1 }, {})).toEqual({ ok: false, message: expect.stringMatching(/at least one of title or message/) });
  });

  it('when a native payload carries text longer than the limits, then what parsers read is cut at nativeField and what the item keeps at its stored limit', () => {
    const { body, headers } = loadFixture('alertmanager/firing.json');
    const alert = (body as { alerts: Array<Record<string, unknown>> }).alerts[0];
    const long = {
      ...(body as object),
      alerts: [{ ...alert, labels: { alertname: 'x', pod: 'p'.repeat(30_000) }, annotations: { summary: 's'.repeat(300), description: 'd'.repeat(30_000) } }],
    };
    const plan = planIngest(long, headers);
    if (!plan.ok) throw new Error(plan.message);
    const [item] = plan.items;
    expect(item.title).toBe('s'.repeat(INGEST_LIMITS.title));
    expect(item.message).toBe('d'.repeat(INGEST_LIMITS.message));
    expect((item.metadata.labels as Record<string, string>).pod).toBe('p'.repeat(INGEST_LIMITS.nativeField));
  });

  it('when a native payload holds NUL or half a surrogate pair, then the item holds U+FFFD in its place', () => {
    const { body, headers } = loadFixture('azure-monitor/fired.json');
    const b = body as { data: { essentials: Record<string, unknown> } };
    const bad = {
      ...b,
      data: { ...b.data, essentials: { ...b.data.essentials, alertRule: 'cpu\u0000high', description: 'x\ud800', configurationItems: ['vm\u0000-1'] } },
    };
    const plan = planIngest(bad, headers);
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.items[0]).toMatchObject({ title: 'cpu\uFFFDhigh', message: 'x\uFFFD', metadata: { configurationItems: ['vm\uFFFD-1'] } });
  });

  it('when a native title is cut inside a surrogate pair, then the cut half becomes U+FFFD', () => {
    const { body, headers } = loadFixture('grafana/firing.json');
    const alert = (body as { alerts: Array<Record<string, unknown>> }).alerts[0];
    const plan = planIngest({ ...(body as object), alerts: [{ ...alert, annotations: { summary: `${'t'.repeat(INGEST_LIMITS.title - 1)}🔥` } }] }, headers);
    expect(plan.ok && plan.items[0].title).toBe(`${'t'.repeat(INGEST_LIMITS.title - 1)}\uFFFD`);
  });

  it('when a Form A or Form B field holds NUL or half a surrogate pair, then a 400 message naming the field', () => {
    expect(planIngest({ title: 'a\u0000b' }, {})).toEqual({
      ok: false,
      message: 'title: title must not contain NUL (U+0000) or unpaired surrogate characters',
    });
    expect(planIngest({ title: 't', metadata: { a: ['ok', 'x\ud800'] } }, {})).toEqual({
      ok: false,
      message: 'metadata.a.1: metadata keys and values must not contain NUL (U+0000) or unpaired surrogate characters',
    });
    expect(planIngest({ title: 't', tags: { 'k\u0000': 'v' } }, {}, 'B')).toEqual({
      ok: false,
      message: 'tags.k\u0000: tags keys and values must not contain NUL (U+0000) or unpaired surrogate characters',
    });
    expect(planIngest({ title: 't', message: '\udc00' }, {}, 'B')).toEqual({
      ok: false,
      message: 'message: message must not contain NUL (U+0000) or unpaired surrogate characters',
    });
  });

  it('when a native label set or name list is longer than nativeEntries, then only its first entries are read', () => {
    const { body, headers } = loadFixture('alertmanager/firing.json');
    const alert = (body as { alerts: Array<Record<string, unknown>> }).alerts[0];
    const labels = Object.fromEntries(Array.from({ length: INGEST_LIMITS.nativeEntries + 50 }, (_, i) => [`l${i}`, 'v']));
    const plan = planIngest({ ...(body as object), alerts: [{ ...alert, labels: { alertname: 'x', ...labels } }] }, headers);
    expect(plan.ok && Object.keys(plan.items[0].metadata.labels as object)).toHaveLength(INGEST_LIMITS.nativeEntries);
    const nr = loadFixture('newrelic/activated.json');
    const names = Array.from({ length: INGEST_LIMITS.nativeEntries + 1 }, (_, i) => `c${i}`);
    const listed = planIngest({ ...(nr.body as object), alertConditionNames: names }, nr.headers);
    expect(listed.ok && listed.items[0].message).toContain(`c${INGEST_LIMITS.nativeEntries - 1}\n`);
    expect(listed.ok && listed.items[0].message).not.toContain(`c${INGEST_LIMITS.nativeEntries}`);
  });

  it('when Form B has more tags than allowed or Form A metadata is too large, then the 400 comes before the rest is read', () => {
    const tags = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`t${i}`, 'v']));
    expect(planIngest({ title: 't', tags }, {}, 'B')).toEqual({ ok: false, message: 'tags: at most 50 tags' });
    expect(planIngest({ title: 't', tags: Object.fromEntries(Object.entries(tags).slice(0, 50)) }, {}, 'B').ok).toBe(true);
    expect(planIngest({ metadata: { blob: 'x'.repeat(70_000) } }, {})).toEqual({ ok: false, message: 'metadata must be at most 64 KiB of JSON' });
  });
});
