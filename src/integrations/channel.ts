/**
 * What a paging channel is, as the integration that owns it declares it (docs/architecture.md,
 * "Adding an integration"): its spec (label, addresses, Form B, quota, credentials), how a page, a
 * drill and a test are rendered for it, whether its pages carry SMS reply codes, and which
 * registry entries send it. Declarations are pure (type imports only, and pure modules of
 * src/domain), so src/domain/channels.ts builds the channel table from them through the registry
 * (src/integrations/registry.ts) without reaching any sender.
 */
import type { AddressResult } from '../domain/addresses';
import type { IncidentStatus } from '../domain/incident-lifecycle';
import type { PageSubject } from '../domain/paging/messages';
import type { PlanLimits } from '../domain/plans';
import type { Severity } from '../domain/severity';
import type { SlackIncidentView } from './slack/messages/blocks';

/** A plan limit that counts pages per user per calendar month (UTC). */
export type MonthlyPageLimit = Extract<keyof PlanLimits, `${string}PerUserPerMonth`>;

/** An incident page to render: the incident, where it goes, and how to sign its one-use actions. */
export interface PageToRender {
  notificationId: string;
  to: string;
  incident: {
    id: string;
    number: number;
    title: string;
    severity: Severity;
    status: IncidentStatus;
    serviceName: string | null;
    organizationId: string;
  };
  /** The incident as every message names it, with its page's URL. */
  subject: PageSubject;
  /** The code an SMS reply starts with; null unless the channel declares `replyCodes`. */
  replyCode: number | null;
  /** The public base URL (APP_URL) callbacks and links use. */
  appUrl: string;
  /** A signed one-use token acting on this page (src/services/response), valid for PAGE_LINK_TTL_HOURS. */
  sign(action: 'acknowledge' | 'resolve'): string;
  /** The same token's expiry, seconds since the epoch. */
  expiresAt: number;
}

/** A drill page to render: marked as a test; acknowledging it passes the drill. */
export interface DrillToRender {
  /** The drill result's id: stands in for a notification id (providers use it as a reference). */
  resultId: string;
  drillId: string;
  to: string;
  replyCode: number | null;
  appUrl: string;
  /** The signed one-use token that acknowledges this drill result. */
  ackToken: string;
  expiresAt: number;
}

/** A test send (`POST /api/contact-methods/{id}/test`, a webhook's test notification): says it is a test, acts on nothing. */
export interface TestToRender {
  /** A fresh id, used as the provider's reference. */
  notificationId: string;
  to: string;
  message: { subject: string; text: string; html: string; voiceTwiml: string };
  /** Push data the app gets with it (which test it was). */
  data: Record<string, string>;
}

/** What a channel's renderers produce: a page but for what the core fills in (notification id, channel, address: OutgoingPage). */
export interface RenderedPage {
  /** Email subject, push title. */
  subject: string;
  /** SMS body, push body, plain-text email. */
  text: string;
  /** HTML email body (email only). */
  html?: string;
  /** TwiML the call plays (voice only): speaks the incident and gathers a keypress. */
  voiceTwiml?: string;
  /**
   * What the call says, carrier-neutral (voice only), for a carrier that builds the call itself
   * (Vonage's NCCO): the words, then the signed one-use token that pressing 1 answers with (a
   * page's acknowledge token, a drill's); without one (a test call) the call takes no keypress.
   */
  speech?: { text: string; acknowledgeToken?: string };
  /** Where the provider reports delivery status (Twilio StatusCallback), when the app URL is public. */
  statusCallbackUrl?: string;
  /** Push only: data the app gets with the notification, and the action category (acknowledge/resolve buttons). */
  push?: { category: string; data: Record<string, string> };
  /** Slack DMs only: the workspace whose Slack installation sends it, and the incident as the message shows it. */
  slack?: { organizationId: string; view: SlackIncidentView };
  /** Channel-specific fields a channel's own sender reads (Pushover's priority and receipt callback); other senders ignore them. */
  extra?: Record<string, string>;
}

/** Everything about one paging channel, declared by its integration. */
export interface ChannelDeclaration<Provider extends string = string> {
  /** What the timeline calls a page on it: "Voice call to ann@example.test (+1…) sent". */
  label: string;
  /** Its name on the startup banner's "Paging …" line (under 10 characters). */
  bannerLabel: string;
  /** How the dashboard asks for an address on it. */
  address: { label: string; placeholder: string };
  /** Checks and normalises a trimmed address; `channel` is this channel's id, for messages. */
  normalise: (value: string, channel: string) => AddressResult;
  /** An address as people read it (timeline, trace); the address itself when absent. */
  display?: (address: string) => string;
  /**
   * How a Form B source lists it (`name`, or an alias the dashboard uses) and the lowest
   * severity it pages for by default; null when Form B never pages it.
   */
  formB: { name: string; aliases: readonly string[]; minSeverity: Severity } | null;
  /** The plan limit its pages count against, and what the fallback reason calls them; null when unlimited. */
  quota: { limit: MonthlyPageLimit; pages: string } | null;
  /** Registry keys (src/integrations/registry.ts) that can send it, first configured wins; with none configured, the dev inbox keeps its pages. */
  providers: readonly Provider[];
  /** The environment variables that would give it a real provider, as the startup banner names them. */
  credentials: string;
  /** True when its pages carry the reply code an SMS answer starts with (`4A`): only SMS-like channels. */
  replyCodes: boolean;
  render(page: PageToRender): RenderedPage;
  /** Absent: drills do not send on it (the reason says so). */
  renderDrill?(drill: DrillToRender): RenderedPage;
  /** Absent: it takes no test sends. */
  renderTest?(test: TestToRender): RenderedPage;
}
