/**
 * One Alertmanager webhook body (version "4") per event, one alert in it: what a Prometheus
 * Alertmanager sends. The title (`summary`) is unique per event, so every row and timeline entry
 * an event leaves can be found by it; the body is built once, so retries send the same bytes and
 * the Idempotency-Key replays instead of conflicting.
 */
import type { Action } from './traffic';

/** The title of the n-th event of a run: `faults <run> #<n>`. */
export const eventTitle = (runId: string, n: number) => `faults ${runId} #${n}`;

export function alertmanagerBody(opts: { key: string; action: Action; title: string; startsAt: string; endsAt?: string }): Record<string, unknown> {
  const status = opts.action === 'trigger' ? 'firing' : 'resolved';
  const labels = { alertname: 'FaultSuite', key: opts.key, severity: 'critical' };
  return {
    receiver: 'klaxon',
    status,
    alerts: [
      {
        status,
        labels,
        annotations: { summary: opts.title },
        startsAt: opts.startsAt,
        endsAt: opts.endsAt ?? '0001-01-01T00:00:00Z',
        generatorURL: 'http://prometheus.faults.test/graph',
        fingerprint: opts.key,
      },
    ],
    groupLabels: { key: opts.key },
    commonLabels: labels,
    commonAnnotations: { summary: opts.title },
    externalURL: 'http://alertmanager.faults.test',
    version: '4',
    groupKey: `{}:{key="${opts.key}"}`,
    truncatedAlerts: 0,
  };
}
