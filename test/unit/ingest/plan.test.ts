import { planIngest } from '../../../src/domain/ingest/plan';
import { loadFixture } from './native-fixtures';

describe('ingestion plan', () => {
  it('when the body is Form A, then one trigger with the raw dedup_key', () => {
    expect(planIngest({ title: 't', dedup_key: 'k', source: 'cron' }, {})).toEqual({
      ok: true,
      sender: 'form-a',
      items: [{ action: 'trigger', title: 't', message: null, description: null, severity: 'MEDIUM', dedupKey: 'k', sender: 'form-a', metadata: { source: 'cron' } }],
    });
  });

  it('when a native trigger arrives, then its severity is on the incident scale and its key is scoped by sender', () => {
    const { body, headers } = loadFixture('alertmanager/firing.json');
    const plan = planIngest(body, headers);
    expect(plan.ok && plan.items.map((i) => [i.action, i.severity, i.dedupKey, i.sender])).toEqual([['trigger', 'CRITICAL', 'alertmanager:7fa3840144758300', 'alertmanager']]);
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
});
