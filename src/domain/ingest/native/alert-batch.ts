/**
 * The Alertmanager webhook body, shared by Prometheus Alertmanager (version "4") and
 * Grafana unified alerting (version "1"): one event per `alerts[]` item.
 */
import { normaliseSeverity } from '../severity';
import { compact, isObject, presentEntries, stringEntries, text } from '../shape';
import type { NormalisedEvent } from '../types';

/** True for a body with an `alerts` array and a `groupKey`, the batch envelope. */
export function isAlertBatch(body: unknown): body is Record<string, unknown> & { alerts: unknown[] } {
  return isObject(body) && Array.isArray(body.alerts) && 'groupKey' in body;
}

/** One event per alert of the batch, labelled with `source`. */
export function normaliseAlertBatch(body: unknown, source: string): NormalisedEvent[] {
  if (!isAlertBatch(body)) return [];
  return body.alerts.filter(isObject).map((alert) => normaliseAlert(alert, source));
}

function normaliseAlert(alert: Record<string, unknown>, source: string): NormalisedEvent {
  const labels = stringEntries(alert.labels);
  const annotations = stringEntries(alert.annotations);
  return compact<NormalisedEvent>({
    source,
    action: text(alert.status) === 'resolved' ? 'resolve' : 'trigger',
    title: annotations.summary ?? labels.alertname ?? `${source} alert`,
    severity: normaliseSeverity(labels.severity),
    dedupKey: text(alert.fingerprint) ?? null,
    message: annotations.description,
    links: presentEntries({
      source: text(alert.generatorURL),
      runbook: annotations.runbook_url,
      silence: text(alert.silenceURL),
      dashboard: text(alert.dashboardURL),
      panel: text(alert.panelURL),
    }),
    metadata: Object.keys(labels).length > 0 ? { labels } : undefined,
  });
}
