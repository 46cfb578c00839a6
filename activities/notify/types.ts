/**
 * The one interface every paging channel sits behind (design.md §6): the worker's send
 * activity renders a page, picks the channel's sender and calls `send`.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { NotifyConfig } from '../../src/config';
import type { ChannelId } from '../../src/domain/channels';

/** A page, rendered and addressed: what a provider needs, nothing it must look up. */
export interface OutgoingPage {
  /** The notifications row this attempt belongs to; providers that take a reference get it. */
  notificationId: string;
  channel: ChannelId;
  /** E.164 number (sms, voice), email address (email) or device token (push). */
  to: string;
  /** Email subject, push title. */
  subject: string;
  /** SMS body, push body, plain-text email. */
  text: string;
  /** HTML email body (email only). */
  html?: string;
  /** TwiML the call plays (voice only): speaks the incident and gathers a keypress. */
  voiceTwiml?: string;
  /** Where the provider reports delivery status (Twilio StatusCallback), when the app URL is public. */
  statusCallbackUrl?: string;
  /** Push only: data the app gets with the notification, and the action category (acknowledge/resolve buttons). */
  push?: { category: string; data: Record<string, string> };
}

/** What a provider accepted. */
export interface SentPage {
  /** The provider's registry key (twilio, sendgrid, smtp, apns, fcm) or dev_inbox. */
  provider: string;
  providerMessageId: string | null;
}

/** Sends one page on one channel; throws `permanentDeliveryFailure` when retrying cannot help. */
/** Senders by channel, made when first asked for. */
export interface ChannelSenders {
  get(channel: ChannelId): ChannelSender;
  close(): Promise<void>;
}

export interface ChannelSender {
  readonly provider: string;
  send(page: OutgoingPage): Promise<SentPage>;
  /** Releases connections (APNs HTTP/2 session, SMTP pool) when the worker stops; optional. */
  close?(): Promise<void>;
}

/**
 * A provider as the channel registry names it (src/domain/channels.ts): given the configuration,
 * undefined when its credentials are not set, else what it would send through.
 */
export type ChannelProvider = (notify: NotifyConfig) => ConfiguredProvider | undefined;

/** A provider whose credentials are set. */
export interface ConfiguredProvider {
  /** Where it sends, for the startup banner; never a credential. */
  description: string;
  /** Opens its senders, one per channel it serves, sharing one client (called once per worker). */
  connect(): Partial<Record<ChannelId, ChannelSender>>;
}

/** ApplicationFailure type of an error retrying cannot fix (invalid number, unregistered device). */
export const PERMANENT_DELIVERY_FAILURE = 'PermanentDeliveryFailure';

/** A non-retryable failure: the send activity stops, the timeline shows `message`. */
export function permanentDeliveryFailure(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: PERMANENT_DELIVERY_FAILURE, message, nonRetryable: true });
}
