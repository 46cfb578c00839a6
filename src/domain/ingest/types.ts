/**
 * What every native sender is turned into before routing (docs/architecture.md, "Ingestion"). Pure data: the
 * ingestion use case decides what to store, confirm or page from it.
 */

/** The three-word scale of Form B, used by the README expectations. */
export const EVENT_SEVERITIES = ['critical', 'warning', 'info'] as const;
export type EventSeverity = (typeof EVENT_SEVERITIES)[number];

/**
 * trigger opens or attaches, resolve closes the open alert with the same key, confirm asks
 * the caller to GET `confirmUrl` once the message is verified, ignore is answered 2xx only.
 */
export const EVENT_ACTIONS = ['trigger', 'resolve', 'confirm', 'ignore'] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];

/** One normalised alert event; a batch payload yields several. */
export interface NormalisedEvent {
  /** The sender as detected (informational), e.g. `grafana`, `aws-cloudwatch`. */
  source: string;
  action: EventAction;
  title: string;
  /** Informational on a resolve: a resolve never changes the stored severity. */
  severity: EventSeverity;
  /** The raw native identifier, unprefixed; scope it by (ingestion URL, source) when storing. */
  dedupKey: string | null;
  /** The sender's main detail text. */
  message?: string;
  /** Secondary detail (runbook text, alarm description). */
  description?: string;
  /** Named links back to the sender (its console page, runbook, silence URL). */
  links?: Record<string, string>;
  /** Labels and other context worth keeping with the alert. */
  metadata?: Record<string, unknown>;
  /** Only on `confirm`: the URL to GET after signature and host validation. */
  confirmUrl?: string;
}

/** Request headers with lower-cased names. */
export type IngestHeaders = Readonly<Record<string, string>>;

/** One native sender: recognises its payloads and normalises them. */
export interface NativeSender {
  /** Stable sender id, e.g. `alertmanager`, `aws-sns`. */
  readonly name: string;
  /** True when the payload is this sender's; `body` is the parsed request body. */
  detect(body: unknown, headers: IngestHeaders): boolean;
  /** The events the payload carries; call only after `detect` returned true. */
  normalise(body: unknown, headers: IngestHeaders): NormalisedEvent[];
}
