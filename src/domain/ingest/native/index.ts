/**
 * The native sender registry, in the fixtures README's detection order: first match wins.
 * Add a sender by writing its module (and fixtures) and placing it in this list. Bodies no
 * sender claims fall through to Form A, which is not decided here.
 */
import type { IngestHeaders, NativeSender } from '../types';
import { alertmanagerSender } from './alertmanager';
import { azureMonitorSender } from './azure-monitor';
import { cloudwatchRawSender } from './cloudwatch';
import { datadogSender } from './datadog';
import { gcpMonitoringSender } from './gcp-monitoring';
import { grafanaSender } from './grafana';
import { newRelicSender } from './newrelic';
import { sentrySender } from './sentry';
import { sentryLegacySender } from './sentry-legacy';
import { snsSender } from './sns';
import { uptimeKumaSender } from './uptime-kuma';
import { uptimeRobotSender } from './uptimerobot';
import { zabbixSender } from './zabbix';

/** Every native sender, most specific first (Grafana and New Relic bodies also hold `title`). */
export const NATIVE_SENDERS: readonly NativeSender[] = [
  snsSender,
  sentrySender,
  sentryLegacySender,
  grafanaSender,
  alertmanagerSender,
  azureMonitorSender,
  gcpMonitoringSender,
  newRelicSender,
  datadogSender,
  uptimeKumaSender,
  zabbixSender,
  uptimeRobotSender,
  cloudwatchRawSender,
];

/** The first sender claiming the payload; undefined means "use Form A". Headers lower-cased. */
export function detectSender(body: unknown, headers: IngestHeaders, senders: readonly NativeSender[] = NATIVE_SENDERS): NativeSender | undefined {
  return senders.find((sender) => sender.detect(body, headers));
}
