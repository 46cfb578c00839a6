/**
 * The one interface every paging channel sits behind (docs/architecture.md, "Integrations"): the
 * worker's send activity renders a page, picks the channel's sender and calls `send`.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { ApplicationFailure } from '@temporalio/common';
import type { NotifyConfig } from '../config';
import type { ChannelId } from '../domain/channels';
import type { PageResponseDeps } from '../services/response/page-responses';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../logger';
import type { Sealer } from '../services/sealing/seal';
import type { RenderedPage } from './channel';

/** A page, rendered (src/integrations/channel.ts) and addressed: what a provider needs, nothing it must look up. */
export interface OutgoingPage extends RenderedPage {
  /** The notifications row this attempt belongs to; providers that take a reference get it. */
  notificationId: string;
  channel: ChannelId;
  /** The contact method's address: E.164 number, email address, device token, subscription JSON, Slack member id, user key. */
  to: string;
}

/** What a provider accepted. */
export interface SentPage {
  /** The provider's registry key (twilio, sendgrid, smtp, apns, fcm, web-push) or dev_inbox. */
  provider: string;
  providerMessageId: string | null;
}

/** Senders by channel, made when first asked for. */
export interface ChannelSenders {
  get(channel: ChannelId): ChannelSender;
  close(): Promise<void>;
}

/** How a call to a sender may be ended early. */
export interface SendOptions {
  /**
   * Aborted when the caller gives up on the call (callProvider's deadline): a sender whose HTTP
   * goes through the bounded client (src/services/outbound) ends its request then, rather than
   * leaving it running. SDK carriers end theirs by their own timeouts (docs/security.md).
   */
  signal?: AbortSignal;
}

/** Sends one page on one channel; throws `permanentDeliveryFailure` when retrying cannot help. */
export interface ChannelSender {
  readonly provider: string;
  send(page: OutgoingPage, opts?: SendOptions): Promise<SentPage>;
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
  connect(deps: SenderDeps): Partial<Record<ChannelId, ChannelSender>>;
}

/** What a sender may read besides its page: the database and the sealer of stored secrets (a Slack installation's bot token). */
export interface SenderDeps {
  orm: MikroORM;
  /** Absent where only email is sent (account emails); a sender that needs it fails clearly without it. */
  sealer?: Sealer;
}

/** ApplicationFailure type of an error retrying cannot fix (invalid number, unregistered device). */
export const PERMANENT_DELIVERY_FAILURE = 'PermanentDeliveryFailure';

/**
 * A non-retryable failure: the send activity stops, the timeline shows `message`. The contact
 * method is disabled (the address is dead) unless `keepContact`: this page was refused, the address may still work.
 */
export function permanentDeliveryFailure(message: string, opts: { keepContact?: boolean } = {}): ApplicationFailure {
  return ApplicationFailure.create({ type: PERMANENT_DELIVERY_FAILURE, message, nonRetryable: true, details: opts.keepContact ? [KEEP_CONTACT] : [] });
}

/** The detail marking a permanent failure that leaves the contact method enabled. */
const KEEP_CONTACT = 'keepContactMethod';

/** True for a permanent failure that refused the page, not the address (permanentDeliveryFailure's `keepContact`). */
export function keepsContactMethod(err: ApplicationFailure): boolean {
  return err.details?.includes(KEEP_CONTACT) ?? false;
}

/** What a provider's inbound hooks need: how to act on an answer, the public URL, the configuration. */
export interface ProviderHookDeps extends PageResponseDeps {
  /** The public base URL providers call (APP_URL): signatures are computed over it. */
  appUrl: string;
  notify: NotifyConfig;
  /** The dashboard's session cookie value, for hooks a signed-in browser comes back to (the Slack install's callback). */
  sessionCookieOf?: (ctx: Context) => string | undefined;
  /** Where work done after the answer (Slack interactions) reports what failed. */
  logger?: Logger;
  /** More than one carrier is configured: a delivery report may wake a failover (docs/reliability.md, "Carriers"). */
  carrierFailover?: boolean;
}

/**
 * One external system as the provider registry lists it (src/integrations/registry.ts): its paging
 * senders, if it sends a channel, and the routes it calls back on, if any. api/hooks mounts every
 * provider's `hooks` before the JSON parser, so a provider posting forms gets its body unparsed.
 */
export interface ProviderModule {
  /** Its environment variables' schema (read with src/integrations/settings.ts `integrationEnv`; checked at startup). */
  env?: import('zod').ZodType;
  /**
   * Its settings built from those variables (its config.ts accessor): called at startup too, so
   * what the schema alone cannot see (half a credential group, an unreadable key file) fails then.
   */
  settings?: (notify: NotifyConfig) => unknown;
  /** Readies the data folder before processes share it (Web Push's VAPID keys, made once for a cluster). */
  prepare?: (notify: NotifyConfig, dataDir: string) => void;
  senders?: ChannelProvider;
  hooks?: (deps: ProviderHookDeps) => Router;
  /** A consumer of the incident-event feed (docs/integrations.md), run in every API process. */
  feedConsumer?: (deps: FeedConsumerDeps) => FeedConsumer;
  /**
   * Its routes under the dashboard's /api (connecting Slack, a Teams test card), mounted with the
   * other session routes: a `(deps: AdminDeps) => RouteSpec[]` of api/dashboard, typed loosely
   * here so this contract imports nothing of the API layer (registry.ts gives it its type back).
   */
  dashboardRoutes?: (deps: never) => readonly unknown[];
  /** A chat destination each service may set (`PUT /api/services/{id}/chat/{provider}`). */
  chat?: ChatDestination;
  /**
   * Its own test sends, by channel id, for channels whose test reads the provider's answer (a
   * browser push: the push service's status) instead of rendering `renderTest` through the sender.
   */
  contactTests?: Readonly<Record<string, ContactTest>>;
  /** Routes on the ingest listener that speak this system's alert API (docs/compat-intake.md). */
  intake?: Intake;
  /** Brings an account of this system into a workspace (docs/importers.md). */
  importer?: Importer;
}

/** A test send to one contact method's address (`POST /api/contact-methods/{id}/test`). */
export type ContactTest = (address: string, deps: ContactTestDeps) => Promise<ContactTestResult>;

export interface ContactTestDeps {
  notify: NotifyConfig;
  /** Disables the contact method (its address is gone for good); the reason is what the dashboard shows. */
  disable(reason: string): Promise<void>;
}

/** What a test answers: whether the provider took it, its status, and why not (never a credential). */
export interface ContactTestResult {
  delivered: boolean;
  status_code: number | null;
  error: string | null;
}

/** What a feed consumer is given: the database, the sealer of stored secrets, how to mail admins. */
export interface FeedConsumerDeps {
  orm: MikroORM;
  sealer: Sealer;
  logger: Logger;
  /** Account emails to admins (src/services/accounts/mailer.ts's AccountMailer, by its shape: this contract imports no service). */
  mailer: { send(mail: { to: string; subject: string; text: string }): Promise<void> };
  appUrl: string;
  /** ALLOW_PRIVATE_TARGETS: for the shared SSRF guard (src/services/targets). */
  allowPrivateTargets: boolean;
  /** Signing action links posted to chat (KLAXON_SECRET) and how long they work (PAGE_LINK_TTL_HOURS). */
  actionLinks: { secret: string; ttlSeconds: number };
  /** The providers' configuration (a chat consumer's app credentials and API URL). */
  notify: NotifyConfig;
}

/** A running consumer: started once, stopped at shutdown. */
export interface FeedConsumer {
  start(): void;
  stop(): Promise<void>;
}

/**
 * A field of an integration's settings form, declared as data: the dashboard renders every
 * integration's form from these (docs/architecture.md, "Adding an integration"), so a new
 * integration needs no dashboard code.
 */
export interface SettingsField {
  /** The settings key (`webhook_url`); a bad value is answered as `settings.<name>`. */
  name: string;
  label: string;
  /** How the dashboard asks for it; `secret` fields are write-only (answered masked). */
  kind: 'url' | 'text';
  required: boolean;
  /** Held sealed at rest and answered masked ("…last4"): a webhook URL is its own credential. */
  secret: boolean;
  placeholder?: string;
  /** One line under the field: where to find the value. */
  help?: string;
}

/** The links a chat message offers: the incident's page, and signed one-use action links while the status allows them. */
export interface ChatActionLinks {
  incident: string;
  acknowledge: string | null;
  resolve: string | null;
}

/** What a chat message shows beyond the event: the service and its policy, and who the latest paging decision paged. */
export interface ChatMessageContext {
  serviceName: string | null;
  policyName: string | null;
  paging: { stepNumber: number; people: string[] } | null;
}

/** One delivery of one feed event to one service's destination, with everything it needs read. */
export interface ChatDelivery<Settings> {
  /** The service's settings for this provider, secrets opened. */
  settings: Settings;
  serviceId: string;
  /** The feed event type (`incident.triggered`, …). */
  type: string;
  event: import('../domain/incident-events').IncidentEventBody;
  /** The event's incident as it stood after the change: never null (the consumer parks events without one). */
  incident: NonNullable<import('../domain/incident-events').IncidentEventBody['incident']>;
  /** Attempts made before this one. */
  attempts: number;
  context: ChatMessageContext;
  links: ChatActionLinks;
  /** Signs a one-use action token for this incident (Mattermost's action context carries one). */
  signAction(action: 'acknowledge' | 'resolve'): string;
}

/** How one attempt went; `permanent` parks the delivery at once (a 4xx the provider will answer again). */
export interface ChatAttempt {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  permanent?: boolean;
  /** The provider asked for this long before the next try (its Retry-After): the queue waits at least that. */
  retryAfterMs?: number;
}

/** What a chat provider's `deliver` may use: the bounded, SSRF-guarded poster, the public URL, the log. */
export interface ChatDeliverDeps {
  post: (
    url: string,
    opts: { headers?: Record<string, string>; body: string; timeoutMs: number },
  ) => Promise<{ status: number | null; body?: string; error?: string; latencyMs: number; retryAfterMs?: number }>;
  appUrl: string;
  logger: Logger;
  orm: MikroORM;
  sealer: Sealer;
  /** The providers' configuration; `notify.env` holds the variables a provider reads with its own schema (its API URL for tests). */
  notify: NotifyConfig;
}

/**
 * A chat destination per service (docs/chat.md): its settings' schema and form, the feed events
 * it posts, and how one is posted. The one delivery queue (src/services/incident-feed) fans
 * events out to it, claims, retries on one schedule and parks; it only renders and posts.
 */
export interface ChatDestination<Settings extends Record<string, unknown> = Record<string, unknown>> {
  /** What the dashboard calls it ("Discord"). */
  label: string;
  /**
   * The settings `PUT /api/services/{id}/chat/{provider}` takes (`{"settings": {...}}`); a bad
   * field is a 400 naming `settings.<field>`. URL fields also pass the SSRF guard when stored.
   */
  settings: import('zod').ZodType<Settings>;
  form: readonly SettingsField[];
  /**
   * Checks that need I/O once the schema passed (Slack: the channel exists in the connected
   * Slack), and the settings to store (its name looked up). Throws the answer: a 400 naming
   * `ctx.fieldName(field)`, or the provider's own 409/503. Absent: the parsed settings are stored.
   */
  resolveSettings?(settings: Settings, ctx: ChatSettingsContext): Promise<Record<string, unknown>>;
  /**
   * A connection the workspace makes once, before any service can post (Slack's app install), as
   * `GET /api/integrations` shows it in this provider's place. Absent: the provider needs none
   * (a webhook URL per service) and is listed with its form and how many services post to it.
   */
  connection?(deps: ChatConnectionDeps, organizationId: string): Promise<ChatConnectionJson>;
  /** The feed event types it posts; absent with `deliver`. */
  eventTypes?: readonly string[];
  /**
   * One attempt of one delivery, by the one chat consumer (src/services/chat/chat-consumer.ts).
   * Absent: the provider posts through its own feed consumer (Slack's messages/, which updates
   * and threads its messages), and the one chat consumer leaves its destinations alone.
   */
  deliver?(delivery: ChatDelivery<Settings>, deps: ChatDeliverDeps): Promise<ChatAttempt>;
}

/** A chat destination the one chat consumer posts: it declares its event types and `deliver`. */
export type PostedChatDestination<Settings extends Record<string, unknown> = Record<string, unknown>> = ChatDestination<Settings> &
  Required<Pick<ChatDestination<Settings>, 'eventTypes' | 'deliver'>>;

/** What a provider's `resolveSettings` is given: the workspace, how to reach its systems, how to name a refused field. */
export interface ChatSettingsContext {
  orm: MikroORM;
  /** Opens the workspace's stored secrets (Slack's bot token). */
  sealer: Sealer;
  /** The providers' configuration (Slack's app variables). */
  notify: NotifyConfig;
  organizationId: string;
  /** How a 400 names a field: `settings.<name>` on the generic route; the older route names its own (`slack_channel_id`). */
  fieldName(name: string): string;
}

/** What a provider's `connection` reads: the database and the providers' configuration. */
export interface ChatConnectionDeps {
  orm: MikroORM;
  notify: NotifyConfig;
}

/** A workspace's connection to a chat provider as `GET /api/integrations` answers it (the provider's key is added before). */
export interface ChatConnectionJson {
  /** This Klaxon has the provider's app variables. */
  configured: boolean;
  /** This workspace has connected it. */
  connected: boolean;
  /** What else the provider shows (Slack: its team, when and by whom it was connected); never a token. */
  [field: string]: unknown;
}

/**
 * A compatible intake (docs/compat-intake.md): routes on the ingest listener that speak another
 * tool's alert API, so its senders change only the host. api/ingest mounts every module's intake
 * (src/integrations/wiring.ts, `intakeRoutes`) at the listener's root and under each ingestion URL.
 */
export interface Intake {
  routes(router: Router, deps: IntakeDeps): void;
}

/** What the ingest listener gives an intake: the one ingestion and the plumbing Form A uses. */
export interface IntakeDeps {
  /** The ingest listener's ingestion: the same group commit, idempotency and quota as Form A. */
  ingestion: import('../services/ingest/accept').Ingestion;
  /** The live source a routing key names (under an ingestion URL, in the URL's workspace). */
  findSource: (presented: { routingKey: string; urlSecret?: string }) => Promise<import('../services/ingest/compat-sources').CompatSource | undefined>;
  /** The alert a create stored (Opsgenie's request status). */
  createdAlert: (sourceId: string, eventId: string) => Promise<{ id: string; createdAt: Date; alias: string | null } | undefined>;
  /** Names the route for the request log before anything runs (never the raw URL: it holds the secret) and starts the clock. */
  routePattern: (pattern: string) => Middleware;
  /** A JSON body (or JSON as text/plain), at most 512 KiB, read as Form A's is. */
  jsonBody: Middleware[];
  /** Runs `handle` for the source a key named: rate-limited and counted as its Form A calls are (no source: just runs it). */
  forSource: (ctx: Context, source: import('../services/ingest/compat-sources').CompatSource | undefined, handle: () => Promise<void>) => Promise<void>;
  /** The request's Idempotency-Key, if any. */
  idempotencyKeyOf: (ctx: Context) => string | undefined;
  /** How the listener would answer a failure (status, message and code, Retry-After), for the intake to say in its own shape. */
  errorAnswer: (err: unknown) => { status: number; body: { message: string; code?: string }; headers: Record<string, string> };
}

/**
 * An importer (docs/importers.md): how to read one system's account and map it to an import plan.
 * The CLI (`klaxon import <system>`) and the dashboard (`POST /api/import/<system>`) are made
 * from these; the engine (src/services/importers) applies the plan.
 */
export interface Importer {
  /** The key: the CLI's subcommand, the dashboard's path, the mapping table's `system`. */
  system: import('../domain/importers/plan').ImportSystem;
  /** What people call it ("PagerDuty"). */
  label: string;
  /** Its REST API's base URL, unless `--api-url` / `api_url` says another. */
  defaultUrl: string;
  /** The headers that carry the credential (never logged, stored or echoed). */
  headers: (credential: string) => Record<string, string>;
  /** Reads the account through the bounded, SSRF-guarded client and maps it; writes nothing. */
  read: (http: import('../services/importers/source-http').SourceHttp, opts: { now: Date }) => Promise<import('../domain/importers/plan').ImportPlan>;
  /** The credential as the dashboard's body field (`api_token`), the CLI's option (`--api-token <token>`) and its help. */
  credential: { field: string; option: string; help: string };
  /** The --api-url option's help. */
  apiUrlHelp: string;
  /** What an import brings in ("users, teams, schedules, escalation policies and services"). */
  brings: string;
  /** The dashboard route's OpenAPI operationId. */
  operationId: string;
}
