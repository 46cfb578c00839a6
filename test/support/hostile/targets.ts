/**
 * Every body ingestion parses, with the string fields its parser reads: each native sender (from
 * the fixtures in test/fixtures/native, or a minimal body where there is none), Form A and Form B.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PlainForm } from '../../../src/domain/ingest/plan';

const FIXTURES = path.resolve(__dirname, '../../fixtures/native');
const fixture = (name: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

export interface HostileTarget {
  /** The sender the base body is detected as, or `form-a` / `form-b`. */
  name: string;
  /** Lower-cased request headers (content type included). */
  headers: Record<string, string>;
  /** How a body no native sender claims is read: A on the ingestion URL, B on the receiver. */
  form: PlainForm;
  /** A fresh, valid body. */
  base(): Record<string, unknown>;
  /** Dotted paths of the string fields the parser reads. */
  fields: readonly string[];
  /** When the fields sit in JSON text inside the body (an SNS message): that field's name. */
  embeddedIn?: string;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const snsAlarm = () => fixture('sns/cloudwatch_alarm.json') as Record<string, string>;
const SNS_HEADERS = { 'content-type': 'application/json', 'x-amz-sns-message-type': 'Notification' };
const alert = (fields: string[]) => fields.map((f) => `alerts.0.${f}`);
const ALERT_FIELDS = [
  'status',
  'labels.alertname',
  'labels.severity',
  'labels.instance',
  'annotations.summary',
  'annotations.description',
  'annotations.runbook_url',
  'fingerprint',
  'generatorURL',
];
const CLOUDWATCH_FIELDS = [
  'AlarmName',
  'NewStateValue',
  'AWSAccountId',
  'Region',
  'AlarmArn',
  'NewStateReason',
  'AlarmDescription',
  'OldStateValue',
  'StateChangeTime',
];

/** Every target: thirteen native senders (three Sentry resources, SNS outside and inside), Form A, Form B. */
export const HOSTILE_TARGETS: readonly HostileTarget[] = [
  { name: 'alertmanager', headers: JSON_HEADERS, form: 'A', base: () => fixture('alertmanager/firing.json'), fields: alert(ALERT_FIELDS) },
  {
    name: 'grafana',
    headers: JSON_HEADERS,
    form: 'A',
    base: () => fixture('grafana/firing.json'),
    fields: alert([...ALERT_FIELDS, 'silenceURL', 'dashboardURL', 'panelURL']),
  },
  {
    name: 'azure-monitor',
    headers: JSON_HEADERS,
    form: 'A',
    base: () => fixture('azure-monitor/fired.json'),
    fields: [
      'alertRule',
      'severity',
      'alertId',
      'description',
      'monitorCondition',
      'signalType',
      'monitoringService',
      'targetResourceGroup',
      'targetResourceType',
      'configurationItems.0',
    ].map((f) => `data.essentials.${f}`),
  },
  {
    name: 'gcp-monitoring',
    headers: JSON_HEADERS,
    form: 'A',
    base: () => fixture('gcp-monitoring/incident_open.json'),
    fields: [
      'policy_name',
      'condition_name',
      'severity',
      'state',
      'incident_id',
      'summary',
      'documentation.content',
      'url',
      'resource.labels.service_name',
      'policy_user_labels.team',
    ].map((f) => `incident.${f}`),
  },
  {
    name: 'newrelic',
    headers: JSON_HEADERS,
    form: 'A',
    base: () => fixture('newrelic/activated.json'),
    fields: ['title', 'state', 'priority', 'id', 'issueUrl', 'workflowName', 'alertConditionNames.0', 'alertPolicyNames.0'],
  },
  {
    name: 'datadog',
    headers: JSON_HEADERS,
    form: 'A',
    base: () => fixture('datadog/triggered.json'),
    fields: ['title', 'body', 'alert_transition', 'aggreg_key', 'alert_id', 'event_type', 'org.id'],
  },
  {
    name: 'sentry (event_alert)',
    headers: { ...JSON_HEADERS, 'sentry-hook-resource': 'event_alert' },
    form: 'A',
    base: () => fixture('sentry/issue_alert_triggered.json'),
    fields: ['action', 'data.triggered_rule', ...['title', 'level', 'issue_id', 'culprit', 'web_url', 'environment', 'release'].map((f) => `data.event.${f}`)],
  },
  {
    name: 'sentry (issue)',
    headers: { ...JSON_HEADERS, 'sentry-hook-resource': 'issue' },
    form: 'A',
    base: () => fixture('sentry/issue_resolved.json'),
    fields: ['action', ...['title', 'level', 'id', 'culprit', 'web_url', 'shortId', 'project.slug'].map((f) => `data.issue.${f}`)],
  },
  {
    name: 'sentry (metric_alert)',
    headers: { ...JSON_HEADERS, 'sentry-hook-resource': 'metric_alert' },
    form: 'A',
    base: () => ({
      action: 'critical',
      data: {
        metric_alert: { id: '91', title: 'p95 latency', alert_rule: { name: 'Checkout p95' } },
        description_text: 'p95 above 2 s',
        web_url: 'https://sentry.example/alerts/91',
      },
    }),
    fields: ['action', 'data.metric_alert.alert_rule.name', 'data.metric_alert.title', 'data.metric_alert.id', 'data.description_text', 'data.web_url'],
  },
  {
    name: 'sentry-legacy',
    headers: { ...JSON_HEADERS, 'user-agent': 'sentry-webhooks/1.0' },
    form: 'A',
    base: () => ({
      id: '77',
      project: 'storefront',
      project_slug: 'storefront',
      culprit: 'views.submit',
      level: 'error',
      url: 'https://sentry.example/issues/77',
      triggering_rules: [],
      message: 'boom',
      event: { title: 'OperationalError' },
    }),
    fields: ['event.title', 'message', 'culprit', 'level', 'id', 'url', 'project_slug', 'project'],
  },
  {
    name: 'uptime-kuma',
    headers: JSON_HEADERS,
    form: 'A',
    base: () => fixture('uptime-kuma/down.json'),
    fields: ['msg', 'heartbeat.msg', 'heartbeat.status', 'heartbeat.monitorID', 'monitor.name', 'monitor.id', 'monitor.url', 'monitor.type'],
  },
  {
    name: 'uptimerobot',
    headers: JSON_HEADERS,
    form: 'A',
    base: () => fixture('uptimerobot/down.json'),
    fields: ['monitorID', 'alertType', 'monitorFriendlyName', 'alertDetails', 'monitorURL', 'alertTypeFriendlyName', 'alertFriendlyDuration'],
  },
  {
    name: 'zabbix',
    headers: JSON_HEADERS,
    form: 'A',
    base: () => fixture('zabbix/problem.json'),
    fields: [
      'event_id',
      'event_value',
      'event_nseverity',
      'event_update_status',
      'event_name',
      'alert_subject',
      'event_severity',
      'alert_message',
      'trigger_description',
      'zabbix_url',
      'host_name',
      'host_ip',
      'event_tags',
      'event_opdata',
      'event_recovery_id',
    ],
  },
  {
    name: 'aws-cloudwatch (raw delivery)',
    headers: JSON_HEADERS,
    form: 'A',
    base: () => JSON.parse(snsAlarm().Message) as Record<string, unknown>,
    fields: CLOUDWATCH_FIELDS,
  },
  {
    name: 'aws-sns (envelope)',
    headers: SNS_HEADERS,
    form: 'A',
    base: snsAlarm,
    fields: ['Type', 'MessageId', 'TopicArn', 'Subject', 'Message', 'Timestamp', 'SignatureVersion', 'Signature', 'SigningCertURL'],
  },
  { name: 'aws-sns (CloudWatch message)', headers: SNS_HEADERS, form: 'A', base: snsAlarm, fields: CLOUDWATCH_FIELDS, embeddedIn: 'Message' },
  {
    name: 'form-a',
    headers: JSON_HEADERS,
    form: 'A',
    base: () => ({
      title: 'Checkout is down',
      message: 'p99 above 2 s',
      description: 'runbook: restart',
      severity: 'critical',
      dedup_key: 'checkout',
      source: 'cron',
      metadata: { note: 'n' },
    }),
    fields: ['title', 'message', 'description', 'severity', 'dedup_key', 'source', 'metadata.note'],
  },
  {
    name: 'form-b',
    headers: JSON_HEADERS,
    form: 'B',
    base: () => ({
      title: 'Disk full',
      message: 'db-1 at 99%',
      severity: 'warning',
      source: 'grafana',
      dedup_key: 'disk-db-1',
      tags: { env: 'prod' },
      url: 'https://grafana.example/d/1',
    }),
    fields: ['title', 'message', 'severity', 'source', 'dedup_key', 'tags.env', 'url'],
  },
];
