import type { Severity } from '../severity';
import { parseFormA } from './form-a';
import { parseFormB } from './form-b';
import { INGEST_LIMITS } from './limits';
import { detectSender } from './native';
import { toIncidentSeverity } from './severity';
import { storableJson, storableText } from './storable-text';
import type { IngestHeaders } from './types';

/**
 * One thing an ingestion request asks for, on the incident scale: a trigger stores an alert; a
 * resolve resolves the sender's active alerts with its key; an acknowledge (PagerDuty's and
 * Opsgenie's senders may send one, docs/compat-intake.md) acknowledges the open incident holding
 * its key. Resolves and acknowledges store no alert: their text fields are unused.
 */
export interface IngestItem {
  action: 'trigger' | 'resolve' | 'acknowledge';
  title: string;
  message: string | null;
  description: string | null;
  severity: Severity;
  /** Native ids are scoped by sender (`grafana:13986…`) so two senders' ids never collide. */
  dedupKey: string | null;
  sender: string;
  metadata: Record<string, unknown>;
  /** Form B's key-value tags and link, kept on the alert. */
  tags?: Record<string, string> | null;
  url?: string | null;
  /**
   * A resolve or acknowledge of one alert by its id (Opsgenie's `identifierType=id`) instead of
   * by key; null when the sender named an id that cannot be one of ours (nothing matches).
   */
  alertId?: string | null;
  /** How the sender asked, said on the timeline after an acknowledge's move (`via PagerDuty Events API`). */
  detail?: string;
}

/** Which form a body that no native sender claims is read as: A on ingestion URLs, B on the API-key surface's receiver. */
export type PlainForm = 'A' | 'B';

export type IngestPlan =
  { ok: true; sender: string; items: IngestItem[]; /** An SNS subscription to confirm once verified. */ confirm?: boolean } | { ok: false; message: string };

/**
 * Decides what a request body means: a native sender's events (docs/architecture.md, "Ingestion"), or Form A (Form B
 * on the API-key surface's receiver, docs/architecture.md, "Inbound webhooks") for any other JSON. `ignore` events (acknowledgements, test pings some senders send) yield no items.
 */
export function planIngest(body: unknown, headers: IngestHeaders, form: PlainForm = 'A'): IngestPlan {
  const steps = planIngestInSlices(body, headers, form);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Events a slice of planning turns into items before it pauses (planIngestInSlices). */
export const PLAN_SLICE = 500;

/**
 * planIngest, pausing (`yield`) after every PLAN_SLICE items of a batch payload. A 512 KiB
 * Alertmanager body can hold thousands of alerts; the caller resumes each slice on a later turn
 * of the event loop, so planning them never holds the process's other requests for long
 * (docs/security.md, "Hostile input").
 */
export function* planIngestInSlices(body: unknown, headers: IngestHeaders, form: PlainForm = 'A'): Generator<void, IngestPlan, void> {
  const sender = detectSender(body, headers);
  if (!sender && form === 'B') {
    const parsed = parseFormB(body);
    if (!parsed.ok) return parsed;
    const e = parsed.event;
    const metadata = e.source ? { source: e.source } : {};
    return {
      ok: true,
      sender: 'form-b',
      items: [
        {
          action: 'trigger',
          title: e.title,
          message: e.message,
          description: null,
          severity: e.severity,
          dedupKey: e.dedupKey,
          sender: 'form-b',
          metadata,
          tags: e.tags,
          url: e.url,
        },
      ],
    };
  }
  if (!sender) {
    const parsed = parseFormA(body);
    if (!parsed.ok) return parsed;
    const e = parsed.event;
    const metadata = e.source ? { ...e.metadata, source: e.source } : e.metadata;
    return {
      ok: true,
      sender: 'form-a',
      items: [
        {
          action: 'trigger',
          title: e.title,
          message: e.message,
          description: e.description,
          severity: e.severity,
          dedupKey: e.dedupKey,
          sender: 'form-a',
          metadata,
        },
      ],
    };
  }
  const items: IngestItem[] = [];
  let confirm = false;
  const events = sender.normalise(body, headers);
  for (const [i, event] of events.entries()) {
    if (i > 0 && i % PLAN_SLICE === 0) yield;
    confirm ||= event.action === 'confirm';
    if (event.action !== 'trigger' && event.action !== 'resolve') continue;
    items.push({
      action: event.action,
      title: kept(event.title, INGEST_LIMITS.title) || `${sender.name} alert`,
      message: event.message === undefined ? null : kept(event.message, INGEST_LIMITS.message),
      description: event.description === undefined ? null : kept(event.description, INGEST_LIMITS.description),
      severity: toIncidentSeverity(event.severity),
      dedupKey: event.dedupKey === null ? null : kept(`${sender.name}:${event.dedupKey}`, INGEST_LIMITS.dedupKey),
      sender: sender.name,
      // Most of it was read through shape.ts `text`; raw parts (Azure's configurationItems) were not.
      metadata: storableJson({ ...(event.metadata ?? {}), ...(event.links ? { links: event.links } : {}), source: event.source }),
    });
  }
  return { ok: true, sender: sender.name, items, ...(confirm ? { confirm } : {}) };
}

// What an event keeps of a native text: cut to its limit, then storable (a cut can split a surrogate pair).
const kept = (value: string, max: number): string => storableText(value.slice(0, max));
