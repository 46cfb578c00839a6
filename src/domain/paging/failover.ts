/**
 * Failover between carriers (docs/reliability.md, "Carriers"): how long a phone page waits for its
 * carrier to confirm delivery before the next carrier is tried, and the line the timeline shows
 * once it is settled ("SMS via Twilio failed (30003) → sent via Vonage, delivered in 2.1 s"). Pure.
 */

/** FAILOVER_AFTER_SECONDS' default: an SMS not confirmed within it goes to the next carrier. */
export const DEFAULT_FAILOVER_AFTER_SECONDS = 30;
/**
 * A call is confirmed when answered: it may ring for up to a minute before its carrier reports it
 * unanswered, so a call waits this much longer than an SMS before it counts as unconfirmed.
 */
export const VOICE_RING_ALLOWANCE_SECONDS = 60;

/** How long a page on `channel` waits for its carrier's confirmation. */
export function confirmationWaitMs(channel: string, failoverAfterSeconds: number): number {
  return (failoverAfterSeconds + (channel === 'voice' ? VOICE_RING_ALLOWANCE_SECONDS : 0)) * 1000;
}

/** Why a carrier was left for the next one. */
export interface CarrierSetback {
  carrier: string;
  /** refused: it did not take the request; failed: its report said so; unconfirmed: no report in time. */
  kind: 'refused' | 'failed' | 'unconfirmed';
  /** The error as recorded (a carrier's message, `provider reported undelivered (30003)`); null when unconfirmed. */
  error: string | null;
}

/** How the last carrier a page went to did. */
export interface CarrierFinal {
  carrier: string;
  status: 'delivered' | 'sent' | 'failed' | 'unconfirmed';
  /** From its acceptance to its delivery report, when delivered. */
  deliveredInMs: number | null;
  error: string | null;
}

/** What people call each carrier. */
const CARRIER_LABELS: Record<string, string> = { twilio: 'Twilio', vonage: 'Vonage' };
export const carrierLabel = (carrier: string) => CARRIER_LABELS[carrier] ?? carrier;

/** A code in parentheses at an error's end (Twilio's 30003), or an HTTP status it names. */
const TRAILING_CODE = /\((\d{3,6})\)$/;
const HTTP_STATUS = /\bHTTP (\d{3})\b/;
/** The status a report gave (`provider reported undelivered (30003)` → undelivered). */
const REPORTED = /^provider reported ([a-z-]+)/;

/** The short reason the timeline gives for an error: its carrier code, its HTTP status, or what was reported. */
export function shortReason(error: string | null, kind: CarrierSetback['kind'], channel: string, waitMs: number): string {
  if (kind === 'unconfirmed') return channel === 'voice' ? 'not answered' : `not confirmed within ${Math.round(waitMs / 1000)} s`;
  const text = (error ?? '').trim();
  const code = TRAILING_CODE.exec(text)?.[1];
  if (code) return code;
  const http = HTTP_STATUS.exec(text)?.[1];
  if (http) return `HTTP ${http}`;
  const reported = REPORTED.exec(text)?.[1];
  if (reported) return reported;
  return text.length > 0 && text.length <= 60 ? text : kind;
}

/** "2.1 s", "850 ms". */
function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The failover line: each carrier left and why, then how the last one did.
 * `SMS via Twilio failed (30003) → sent via Vonage, delivered in 2.1 s`.
 */
export function describeFailover(channelLabel: string, channel: string, setbacks: readonly CarrierSetback[], final: CarrierFinal, waitMs: number): string {
  const left = setbacks.map((s, i) => {
    const verb = s.kind === 'refused' ? 'refused' : s.kind === 'failed' ? 'failed' : channel === 'voice' ? 'unanswered' : 'unconfirmed';
    const reason = shortReason(s.error, s.kind, channel, waitMs);
    const why = reason === verb || (s.kind === 'unconfirmed' && channel === 'voice') ? '' : ` (${reason})`;
    return `${i === 0 ? `${channelLabel} via ` : 'then '}${carrierLabel(s.carrier)} ${verb}${why}`;
  });
  const via = `via ${carrierLabel(final.carrier)}`;
  const last =
    final.status === 'delivered'
      ? `sent ${via}, delivered${final.deliveredInMs !== null ? ` in ${duration(final.deliveredInMs)}` : ''}`
      : final.status === 'failed'
        ? `${via} failed too${final.error ? ` (${shortReason(final.error, 'failed', channel, waitMs)})` : ''}`
        : final.status === 'unconfirmed'
          ? `sent ${via}, ${channel === 'voice' ? 'not answered' : `not confirmed within ${Math.round(waitMs / 1000)} s`}`
          : `sent ${via}`;
  return `${left.join(', ')} → ${last}`;
}
