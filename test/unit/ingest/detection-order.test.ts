import { detectSender, NATIVE_SENDERS } from '../../../src/domain/ingest/native';
import type { NativeSender } from '../../../src/domain/ingest/types';
import { fixtureBody } from './native-fixtures';

const JSON_HEADERS = { 'content-type': 'application/json' };
const detected = (body: unknown, headers: Record<string, string> = JSON_HEADERS): string | undefined => detectSender(body, headers)?.name;
const alarm = () => JSON.parse(fixtureBody('sns/cloudwatch_alarm.json').Message as string) as Record<string, unknown>;

describe('native sender detection order', () => {
  it('when the registry is listed, then it follows the README order', () => {
    expect(NATIVE_SENDERS.map((s) => s.name)).toEqual([
      'aws-sns',
      'sentry',
      'sentry-legacy',
      'grafana',
      'alertmanager',
      'azure-monitor',
      'gcp-monitoring',
      'newrelic',
      'datadog',
      'uptime-kuma',
      'zabbix',
      'uptimerobot',
      'aws-cloudwatch',
    ]);
  });

  it('when the JSON matches no sender, then no sender is detected (Form A decides)', () => {
    expect(detected({ foo: 1, bar: [1] })).toBeUndefined();
    expect(detected({ title: 'Disk full', message: 'on db-1', severity: 'critical', dedup_key: 'db-1-disk' })).toBeUndefined();
  });

  it('when the body is not a JSON object, then no sender is detected', () => {
    for (const body of [null, undefined, 'text', 42, [], [{ alerts: [] }]]) expect(detected(body)).toBeUndefined();
  });

  it('when a Grafana body also carries title and message, then it is still Grafana, not Form A', () => {
    const body = fixtureBody('grafana/firing.json');
    expect(body).toHaveProperty('title');
    expect(detected(body)).toBe('grafana');
  });

  it('when an alert batch says version "4", then it is Alertmanager; version "1" without orgId/state is neither', () => {
    expect(detected({ ...fixtureBody('grafana/firing.json'), version: '4' })).toBe('alertmanager');
    expect(detected({ ...fixtureBody('alertmanager/firing.json'), version: '1' })).toBeUndefined();
    const { groupKey: _dropped, ...withoutGroupKey } = fixtureBody('alertmanager/firing.json');
    expect(detected(withoutGroupKey)).toBeUndefined();
  });

  it('when the SNS message-type header is present, then SNS wins over any body shape', () => {
    expect(detected(fixtureBody('grafana/firing.json'), { 'x-amz-sns-message-type': 'Notification' })).toBe('aws-sns');
  });

  it('when an SNS envelope arrives without SNS headers, then its body shape is enough', () => {
    expect(detected(fixtureBody('sns/cloudwatch_alarm.json'))).toBe('aws-sns');
    const { SigningCertURL: _dropped, ...unsigned } = fixtureBody('sns/cloudwatch_alarm.json');
    expect(detected(unsigned)).toBeUndefined();
  });

  it('when SNS raw message delivery posts a bare CloudWatch alarm, then the raw CloudWatch sender takes it', () => {
    const headers = { 'x-amz-sns-message-type': 'Notification', 'x-amz-sns-rawdelivery': 'true' };
    expect(detected(alarm(), headers)).toBe('aws-cloudwatch');
    expect(detected(alarm())).toBe('aws-cloudwatch');
    expect(detected({ title: 'raw Form A over SNS' }, headers)).toBeUndefined();
  });

  it('when the Sentry resource header is present, then Sentry wins over the body shape', () => {
    expect(detected(fixtureBody('newrelic/activated.json'), { 'sentry-hook-resource': 'issue' })).toBe('sentry');
  });

  it('when the legacy plugin body comes with a sentry-webhooks user agent, then it is legacy Sentry; without it, nothing', () => {
    const body = { id: '42', project: 'shop', culprit: 'x in y', level: 'error', url: 'https://sentry.example/i/42', triggering_rules: [], event: {} };
    expect(detected(body, { 'user-agent': 'sentry-webhooks/25.3.0' })).toBe('sentry-legacy');
    expect(detected(body)).toBeUndefined();
  });

  it('when a New Relic body carries a title, then it is New Relic, not Form A', () => {
    expect(detected(fixtureBody('newrelic/activated.json'))).toBe('newrelic');
  });

  it('when a Datadog-like body has no org object, then it is not Datadog', () => {
    expect(detected({ ...fixtureBody('datadog/triggered.json'), org: '731244' })).toBeUndefined();
  });

  it('when Google Cloud Monitoring incident lacks incident_id, then it is not detected', () => {
    expect(detected({ incident: { policy_name: 'p' }, version: '1.2' })).toBeUndefined();
  });

  it('when Uptime Kuma sends a test with null heartbeat and monitor, then it is still Uptime Kuma', () => {
    expect(detected({ heartbeat: null, monitor: null, msg: 'Uptime Kuma Webhook Test' })).toBe('uptime-kuma');
  });

  it('when a sender is added to the list, then its position alone decides precedence', () => {
    const claimsAll: NativeSender = { name: 'catch-all', detect: () => true, normalise: () => [] };
    const body = fixtureBody('zabbix/problem.json');
    expect(detectSender(body, JSON_HEADERS, [claimsAll, ...NATIVE_SENDERS])?.name).toBe('catch-all');
    expect(detectSender(body, JSON_HEADERS, [...NATIVE_SENDERS, claimsAll])?.name).toBe('zabbix');
  });
});
