/** GET /api/status as the Reliability page reads it (docs/reliability.md; docs/api/status-and-notifications.md). */
export interface LatencyQuantiles {
  /** Seconds; null when no incident was paged in the window. */
  p50: number | null;
  p99: number | null;
}

/** One SMS/voice carrier's health: skipped for a cool-off after failing most of its recent sends. */
export interface CarrierHealth {
  carrier: string;
  healthy: boolean;
  skipped_until: string | null;
}

export interface ReliabilityStatus {
  canary: { last_success_at: string | null };
  latency: { hour: LatencyQuantiles; day: LatencyQuantiles };
  /** Absent from a server that does not report carriers yet. */
  carriers?: CarrierHealth[];
}

/** A latency as people read it: "140 ms" under a second, "2.5 s" under a minute, "3 min 5 s" beyond; "no pages" for null. */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return 'no pages';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${Math.round(seconds * 10) / 10} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** Carrier keys as the dashboard names them elsewhere. */
export const CARRIER_LABELS: Record<string, string> = { twilio: 'Twilio', vonage: 'Vonage' };
