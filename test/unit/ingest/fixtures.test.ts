import { detectSender } from '../../../src/domain/ingest/native';
import { listFixtures, loadFixture } from './native-fixtures';

/** The fixtures README's expectations, copied out by hand: [fixture, detected sender, result]. */
const EXPECTED: Record<string, { sender: string; event: Record<string, string> }> = {
  'alertmanager/firing.json': {
    sender: 'alertmanager',
    event: { source: 'alertmanager', title: 'Replication lag on pg-replica-03 is 47s', severity: 'critical', dedup_key: '7fa3840144758300', action: 'trigger' },
  },
  'alertmanager/resolved.json': {
    sender: 'alertmanager',
    event: { source: 'alertmanager', title: 'Replication lag on pg-replica-03 is 47s', severity: 'critical', dedup_key: '7fa3840144758300', action: 'resolve' },
  },
  'azure-monitor/fired.json': {
    sender: 'azure-monitor',
    event: {
      source: 'azure-monitor',
      title: 'aks-prod-node-cpu-high',
      severity: 'critical',
      dedup_key: '/subscriptions/7c2e9f41-5b3a-4d8e-9a61-0f4b2c8d3e17/providers/Microsoft.AlertsManagement/alerts/3b8f0d62-91ac-4e7f-b5d2-6c1e0a9f4b73',
      action: 'trigger',
    },
  },
  'azure-monitor/resolved.json': {
    sender: 'azure-monitor',
    event: {
      source: 'azure-monitor',
      title: 'aks-prod-node-cpu-high',
      severity: 'critical',
      dedup_key: '/subscriptions/7c2e9f41-5b3a-4d8e-9a61-0f4b2c8d3e17/providers/Microsoft.AlertsManagement/alerts/3b8f0d62-91ac-4e7f-b5d2-6c1e0a9f4b73',
      action: 'resolve',
    },
  },
  'datadog/recovered.json': {
    sender: 'datadog',
    event: {
      source: 'datadog',
      title: 'Root volume almost full (host:web-07)',
      severity: 'info',
      dedup_key: '731244:Root volume almost full:host:web-07',
      action: 'resolve',
    },
  },
  'datadog/triggered.json': {
    sender: 'datadog',
    event: {
      source: 'datadog',
      title: 'Root volume almost full (host:web-07)',
      severity: 'critical',
      dedup_key: '731244:Root volume almost full:host:web-07',
      action: 'trigger',
    },
  },
  'gcp-monitoring/incident_closed.json': {
    sender: 'gcp-monitoring',
    event: { source: 'gcp-monitoring', title: 'ledger-writer p99 latency', severity: 'critical', dedup_key: '0.nq7k2x4vbl1e', action: 'resolve' },
  },
  'gcp-monitoring/incident_open.json': {
    sender: 'gcp-monitoring',
    event: { source: 'gcp-monitoring', title: 'ledger-writer p99 latency', severity: 'critical', dedup_key: '0.nq7k2x4vbl1e', action: 'trigger' },
  },
  'grafana/firing.json': {
    sender: 'grafana',
    event: { source: 'grafana', title: '/srv/backups on nas-backup-01 is 93% full', severity: 'warning', dedup_key: '13986aadcf7db5fe', action: 'trigger' },
  },
  'grafana/resolved.json': {
    sender: 'grafana',
    event: { source: 'grafana', title: '/srv/backups on nas-backup-01 is 93% full', severity: 'warning', dedup_key: '13986aadcf7db5fe', action: 'resolve' },
  },
  'newrelic/activated.json': {
    sender: 'newrelic',
    event: {
      source: 'newrelic',
      title: "orders-worker query result is > 500.0 for 5 minutes on 'Kafka consumer lag'",
      severity: 'critical',
      dedup_key: 'c4e1a7d2-5f3b-4a89-9e62-0b7d8c1f2a35',
      action: 'trigger',
    },
  },
  'newrelic/closed.json': {
    sender: 'newrelic',
    event: {
      source: 'newrelic',
      title: "orders-worker query result is > 500.0 for 5 minutes on 'Kafka consumer lag'",
      severity: 'critical',
      dedup_key: 'c4e1a7d2-5f3b-4a89-9e62-0b7d8c1f2a35',
      action: 'resolve',
    },
  },
  'sentry/issue_alert_triggered.json': {
    sender: 'sentry',
    event: {
      source: 'sentry',
      title: 'OperationalError: could not obtain connection from pool within 5.0s',
      severity: 'critical',
      dedup_key: '5123987704',
      action: 'trigger',
    },
  },
  'sentry/issue_resolved.json': {
    sender: 'sentry',
    event: {
      source: 'sentry',
      title: 'OperationalError: could not obtain connection from pool within 5.0s',
      severity: 'critical',
      dedup_key: '5123987704',
      action: 'resolve',
    },
  },
  'sns/cloudwatch_alarm.json': {
    sender: 'aws-sns',
    event: {
      source: 'aws-cloudwatch',
      title: 'prod-checkout-5xx-rate',
      severity: 'critical',
      dedup_key: 'arn:aws:cloudwatch:eu-west-1:318442907165:alarm:prod-checkout-5xx-rate',
      action: 'trigger',
    },
  },
  'sns/cloudwatch_ok.json': {
    sender: 'aws-sns',
    event: {
      source: 'aws-cloudwatch',
      title: 'prod-checkout-5xx-rate',
      severity: 'info',
      dedup_key: 'arn:aws:cloudwatch:eu-west-1:318442907165:alarm:prod-checkout-5xx-rate',
      action: 'resolve',
    },
  },
  'sns/subscription_confirmation.json': {
    sender: 'aws-sns',
    event: {
      source: 'aws-sns',
      title: 'SNS subscription confirmation',
      severity: 'info',
      dedup_key: '0a3a1dff-e97f-4dec-83bf-e6c28fbb3259',
      action: 'confirm',
      confirm_url:
        'https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:eu-west-1:318442907165:prod-cloudwatch-alarms&Token=ff6d7efebebaa8fe790c94ec7bd0059c0b42c4cf1f410fa08dbcc26e5a2a75727ea1ffc6d67b0875df8342b7246a0fc3ecc98447a7e06a84a1569129ea63903401cacbd1b9cfda4e87f8c885e990fa716e138de8571dedd96675593ccacfaecf8e5a2dc4e668200f3b06afc80b87fb676d4b741be24e43b980c54c48b7602aaf',
    },
  },
  'sns/unsubscribe_confirmation.json': {
    sender: 'aws-sns',
    event: { source: 'aws-sns', title: 'SNS unsubscribe confirmation', severity: 'info', dedup_key: '9c9ed5c0-e400-434f-953a-281fefff4ccb', action: 'ignore' },
  },
  'uptime-kuma/down.json': {
    sender: 'uptime-kuma',
    event: { source: 'uptime-kuma', title: 'billing-portal (public)', severity: 'critical', dedup_key: '17', action: 'trigger' },
  },
  'uptime-kuma/up.json': {
    sender: 'uptime-kuma',
    event: { source: 'uptime-kuma', title: 'billing-portal (public)', severity: 'info', dedup_key: '17', action: 'resolve' },
  },
  'uptimerobot/down.json': {
    sender: 'uptimerobot',
    event: { source: 'uptimerobot', title: 'Public API ping', severity: 'critical', dedup_key: '797214863', action: 'trigger' },
  },
  'uptimerobot/up.json': {
    sender: 'uptimerobot',
    event: { source: 'uptimerobot', title: 'Public API ping', severity: 'info', dedup_key: '797214863', action: 'resolve' },
  },
  'zabbix/problem.json': {
    sender: 'zabbix',
    event: {
      source: 'zabbix',
      title: 'High CPU utilization (over 90% for 5m) on db-primary-02',
      severity: 'critical',
      dedup_key: '4471021',
      action: 'trigger',
    },
  },
  'zabbix/recovery.json': {
    sender: 'zabbix',
    event: {
      source: 'zabbix',
      title: 'High CPU utilization (over 90% for 5m) on db-primary-02',
      severity: 'critical',
      dedup_key: '4471021',
      action: 'resolve',
    },
  },
};

describe('native fixtures', () => {
  it('when the fixture folder is listed, then every body fixture has an expectation here', () => {
    expect(listFixtures()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('when %s is posted, then it is detected and normalised as the README says', (name, expected) => {
    const { body, headers } = loadFixture(name);
    const sender = detectSender(body, headers);
    expect(sender?.name).toBe(expected.sender);

    const events = sender?.normalise(body, headers) ?? [];
    expect(events).toHaveLength(1);
    const [event] = events;
    const actual: Record<string, unknown> = {
      source: event.source,
      title: event.title,
      severity: event.severity,
      dedup_key: event.dedupKey,
      action: event.action,
    };
    if (event.confirmUrl !== undefined) actual.confirm_url = event.confirmUrl;
    expect(actual).toEqual(expected.event);
  });
});
