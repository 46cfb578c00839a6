/**
 * The wiring: what the core calls to reach the integrations the registry lists
 * (src/integrations/registry.ts): per channel its sender (the first of the channel's providers, in
 * the channel registry's order, that is configured; else the dev inbox), the hooks api/hooks
 * mounts, the feed consumers, intakes, importers and dashboard routes. A module is loaded the
 * first time any of these asks for it.
 */
import type Router from '@koa/router';
import type { AdminDeps } from '../../api/dashboard/admin-kit';
import type { RouteSpec } from '../../api/http/route-spec';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { NotifyConfig } from '../config';
import { CHANNEL_IDS, CHANNELS, DEV_INBOX, type ChannelId, type ProviderKey } from '../domain/channels';
import { CHAT_LINK_VIA, createChatActionRouter } from './chat-actions';
import { ChatDestinationsConsumer } from '../services/chat/chat-consumer';
import { postJson } from '../services/targets';
import { ATTEMPT_TIMEOUT_MS } from './outgoing-webhooks/schedule';
import { createDevInboxSender } from '../services/dev-inbox';
import { REGISTRY, type IntegrationKey } from './registry';
import { CARRIERS, type Carrier } from '../domain/paging/carrier-routes';

const isCarrier = (key: string): key is Carrier => (CARRIERS as readonly string[]).includes(key);
import type {
  ChannelSender,
  ChatDestination,
  ConfiguredProvider,
  ContactTest,
  FeedConsumer,
  FeedConsumerDeps,
  Importer,
  IntakeDeps,
  PostedChatDestination,
  ProviderHookDeps,
  ProviderModule,
  SenderDeps,
} from './types';
import { integrationEnv } from './settings';

let loaded: ReadonlyArray<readonly [IntegrationKey, ProviderModule]> | undefined;

/** Every registry module, loaded once, in registry order. */
function modules(): ReadonlyArray<readonly [IntegrationKey, ProviderModule]> {
  loaded ??= (Object.keys(REGISTRY) as IntegrationKey[]).map((key) => [key, REGISTRY[key].load() as ProviderModule] as const);
  return loaded;
}

/** Every registry module alone, in registry order. */
const moduleList = (): ProviderModule[] => modules().map(([, module]) => module);

/** One registry module by key. */
function moduleOf(key: IntegrationKey): ProviderModule {
  return modules().find(([k]) => k === key)![1];
}

/** A channel's provider once chosen: its registry key, configured. */
interface Chosen {
  key: ProviderKey;
  provider: ConfiguredProvider;
}

/** The first of a channel's registry providers whose credentials are configured; undefined means the dev inbox. */
function chooseProvider(notify: NotifyConfig, channel: ChannelId): Chosen | undefined {
  for (const key of CHANNELS[channel].providers) {
    const senders = moduleOf(key).senders;
    if (!senders) throw new Error(`registry entry ${key} sends no channel, though the channel ${channel} lists it`);
    const provider = senders(notify);
    if (provider) return { key, provider };
  }
  return undefined;
}

/** A record with one value per channel, in registry order. */
const perChannel = <T>(value: (channel: ChannelId) => T) => Object.fromEntries(CHANNEL_IDS.map((channel) => [channel, value(channel)])) as Record<ChannelId, T>;

/** Per channel, the provider its configuration selects (SMTP_URL wins over SendGrid for email). */
export function channelProviders(notify: NotifyConfig): Record<ChannelId, ProviderKey | typeof DEV_INBOX> {
  return perChannel((channel) => chooseProvider(notify, channel)?.key ?? DEV_INBOX);
}

/** One sender per channel: the real provider when its credentials are configured, else the dev inbox. */
export function createChannelSenders(notify: NotifyConfig, deps: SenderDeps): Record<ChannelId, ChannelSender> {
  return createPagingSenders(notify, deps).senders;
}

/** A carrier's sender of one phone channel. */
export interface CarrierSender {
  carrier: Carrier;
  sender: ChannelSender;
}

/**
 * What the paging activities send through: per channel its sender (the first configured provider,
 * else the dev inbox), and per phone channel (one whose providers are carriers) every configured
 * carrier's sender, in the registry's order, for routing and failover (docs/reliability.md, "Carriers").
 */
export function createPagingSenders(
  notify: NotifyConfig,
  deps: SenderDeps,
): { senders: Record<ChannelId, ChannelSender>; carriers: Partial<Record<ChannelId, CarrierSender[]>> } {
  // Each provider connects once: SMS and voice share one Twilio client.
  const connected = new Map<ProviderKey, Partial<Record<ChannelId, ChannelSender>>>();
  const senderOf = (key: ProviderKey, provider: ConfiguredProvider, channel: ChannelId): ChannelSender => {
    if (!connected.has(key)) connected.set(key, provider.connect(deps));
    const sender = connected.get(key)![channel];
    if (!sender) throw new Error(`provider ${key} has no sender for ${channel}, though the channel registry lists it`);
    return sender;
  };
  const senders = perChannel((channel) => {
    const chosen = chooseProvider(notify, channel);
    return chosen ? senderOf(chosen.key, chosen.provider, channel) : createDevInboxSender(deps.orm, channel);
  });
  const carriers: Partial<Record<ChannelId, CarrierSender[]>> = {};
  for (const channel of CHANNEL_IDS) {
    const configured = configuredCarrierProviders(notify, channel);
    if (configured.length > 0) carriers[channel] = configured.map(({ key, provider }) => ({ carrier: key, sender: senderOf(key, provider, channel) }));
  }
  return { senders, carriers };
}

/** A phone channel's configured carriers, in the registry's order (none for a channel that is not sent by carriers). */
function configuredCarrierProviders(notify: NotifyConfig, channel: ChannelId): Array<{ key: Carrier; provider: ConfiguredProvider }> {
  return CHANNELS[channel].providers.flatMap((key) => {
    if (!isCarrier(key)) return [];
    const provider = moduleOf(key).senders?.(notify);
    return provider ? [{ key, provider }] : [];
  });
}

/** Every carrier configured for some phone channel, in the default order: what /api/status and the breaker report on. */
export function configuredCarriers(notify: NotifyConfig): Carrier[] {
  const keys = new Set(CHANNEL_IDS.flatMap((channel) => configuredCarrierProviders(notify, channel).map((c) => c.key)));
  return CARRIERS.filter((c) => keys.has(c));
}

/** The sender of one channel alone (the API's account emails), connecting only that channel's provider. */
export function createChannelSender(notify: NotifyConfig, orm: MikroORM, channel: ChannelId, sealer?: SenderDeps['sealer']): ChannelSender {
  const chosen = chooseProvider(notify, channel);
  if (!chosen) return createDevInboxSender(orm, channel);
  const sender = chosen.provider.connect({ orm, sealer })[channel];
  if (!sender) throw new Error(`provider ${chosen.key} has no sender for ${channel}, though the channel registry lists it`);
  return sender;
}

/** Closes every sender that holds connections (APNs session, SMTP sockets); for worker shutdown. */
export async function closeChannelSenders(senders: Record<ChannelId, ChannelSender>): Promise<void> {
  await Promise.all([...new Set(Object.values(senders))].map((s) => s.close?.()));
}

/** Startup banner lines: per channel, the provider it goes to, or the dev inbox and what would enable it. */
export function describeChannels(notify: NotifyConfig): string[] {
  checkIntegrationEnv(notify);
  return CHANNEL_IDS.map((channel) => {
    const { bannerLabel, credentials } = CHANNELS[channel];
    const where = chooseProvider(notify, channel)?.provider.description ?? `dev inbox (set ${credentials} to send for real; see \`klaxon inbox list\`)`;
    return `${`Paging ${bannerLabel}`.padEnd(17)}${where}`;
  });
}

/** Parses every integration's own variables (ProviderModule `env`, then `settings`): a bad one fails startup, naming it. */
export function checkIntegrationEnv(notify: NotifyConfig): void {
  for (const [, module] of modules()) {
    if (module.env) integrationEnv(notify, module.env);
    module.settings?.(notify);
  }
}

/** Readies the data folder processes will share (ProviderModule `prepare`): `klaxon cluster`, before its roles start. */
export function prepareIntegrations(notify: NotifyConfig, dataDir: string): void {
  for (const [, module] of modules()) module.prepare?.(notify, dataDir);
}

/** A channel's own test send (ProviderModule `contactTests`) and the registry key of its module; undefined: none declared. */
export function contactTestOf(channel: string): { provider: string; test: ContactTest } | undefined {
  for (const [provider, module] of modules()) {
    const test = module.contactTests?.[channel];
    if (test) return { provider, test };
  }
  return undefined;
}

/** The routes every provider takes callbacks on (replies, delivery reports), for api/hooks to mount. */
export function providerHooks(deps: ProviderHookDeps): Router[] {
  const viaOf = (key: string) => {
    const label = chatProvider(key)?.chat.label;
    return label ? `${label} link` : undefined;
  };
  const chatActions = createChatActionRouter(deps, { prefix: '/hooks/chat', via: CHAT_LINK_VIA, viaOf });
  const hookDeps = { ...deps, carrierFailover: deps.notify.failoverOnReports === true && configuredCarriers(deps.notify).length > 1 };
  return [chatActions, ...moduleList().flatMap((p) => (p.hooks ? [p.hooks(hookDeps)] : []))];
}

/** Starts every provider's incident-event feed consumer (this API process's); returns what stops them. */
export function startFeedConsumers(deps: FeedConsumerDeps): () => Promise<void> {
  const consumers: FeedConsumer[] = moduleList().flatMap((p) => (p.feedConsumer ? [p.feedConsumer(deps)] : []));
  const chat = postedChatProviders();
  if (chat.length > 0) consumers.push(chatConsumer(deps, chat));
  for (const consumer of consumers) consumer.start();
  return async () => {
    await Promise.all(consumers.map((c) => c.stop()));
  };
}

/** Mounts every module's compatible intake (docs/compat-intake.md) on the ingest listener's router. */
export function intakeRoutes(router: Router, deps: IntakeDeps): void {
  for (const p of moduleList()) p.intake?.routes(router, deps);
}

/** Every importer (docs/importers.md), in registry order: the CLI's `klaxon import` commands and the dashboard's routes. */
export function importers(): Importer[] {
  return moduleList().flatMap((p) => (p.importer ? [p.importer] : []));
}

/** The importer of one system; throws for a system no module imports (a caller's bug: inputs are checked first). */
export function importerOf(system: string): Importer {
  const found = importers().find((i) => i.system === system);
  if (!found) throw new Error(`no importer for ${system}`);
  return found;
}

/** The one consumer posting every chat provider's messages (src/services/chat/chat-consumer.ts). */
export function chatConsumer(deps: FeedConsumerDeps, providers: PostedChatProvider[] = postedChatProviders()): ChatDestinationsConsumer {
  return new ChatDestinationsConsumer({
    orm: deps.orm,
    sealer: deps.sealer,
    logger: deps.logger,
    appUrl: deps.appUrl,
    actionLinks: deps.actionLinks,
    providers,
    notify: deps.notify,
    post: async (url, opts) => {
      const res = await postJson(url, { headers: opts.headers ?? {}, body: opts.body, timeoutMs: opts.timeoutMs, allowPrivate: deps.allowPrivateTargets });
      return {
        status: res.status,
        latencyMs: res.latencyMs,
        ...(res.error ? { error: res.error } : {}),
        ...(res.retryAfterMs !== undefined && { retryAfterMs: res.retryAfterMs }),
      };
    },
    attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
  });
}

/** A chat destination as the registry lists it: its registry key (`microsoft-teams`) and what it declares. */
export interface ChatProvider {
  key: string;
  chat: ChatDestination;
}

/** Every module that declares a per-service chat destination, in registry order. */
export function chatProviders(): ChatProvider[] {
  return modules().flatMap(([key, p]) => (p.chat ? [{ key, chat: p.chat as unknown as ChatDestination }] : []));
}

/** A chat provider the one chat consumer posts for. */
export interface PostedChatProvider {
  key: string;
  chat: PostedChatDestination;
}

/** The chat providers that declare `deliver`, in registry order (Slack posts through its own feed consumer). */
export function postedChatProviders(): PostedChatProvider[] {
  return chatProviders().flatMap(({ key, chat }) => (chat.deliver && chat.eventTypes ? [{ key, chat: chat as PostedChatDestination }] : []));
}

/** One chat provider by key; undefined when no module declares it. */
export function chatProvider(key: string): ChatProvider | undefined {
  return chatProviders().find((p) => p.key === key);
}

/** Every module's routes under the dashboard's /api, in registry order (api/dashboard/routes mounts them). */
export function integrationDashboardRoutes(deps: AdminDeps): RouteSpec[] {
  return moduleList().flatMap((p) => (p.dashboardRoutes as ((deps: AdminDeps) => RouteSpec[]) | undefined)?.(deps) ?? []);
}
