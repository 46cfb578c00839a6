/**
 * SMS and voice pages through `@vonage/server-sdk` (docs/integrations/vonage.md): an SMS is one
 * Messages API message whose `webhook_url` is Klaxon's `/hooks/vonage/status`; a call is one Voice
 * API call with the NCCO of ncco.ts, whose `event_url` is `/hooks/vonage/event`. Both authenticate
 * with the application's JWT (its id and private key). The SDK is pointed at VONAGE_API_URL when
 * set and bounded by PROVIDER_CALL_TIMEOUT_MS (docs/security.md, "The SDK carriers").
 */
import { Vonage } from '@vonage/server-sdk';
import { PROVIDER_CALL_TIMEOUT_MS } from '../../domain/paging/attempt-timeouts';
import { describeError, notAcceptedFailure, permanentFailure, rejectedFailure, retryableFailure } from '../failures';
import type { ChannelProvider, ChannelSender, OutgoingPage, SentPage } from '../types';
import { vonageSettings, type VonageConfig } from './config';
import { callEventUrl, callNcco, messageStatusUrl } from './ncco';

export type { VonageConfig };

/** A number as Vonage takes it: E.164 without the `+`. */
const digits = (e164: string) => e164.replace('+', '');

/** A Vonage client for the configured application, pointed at VONAGE_API_URL when set. */
export function createVonageClient(config: VonageConfig): Vonage {
  const hosts = config.apiUrl ? { apiHost: config.apiUrl, restHost: config.apiUrl } : {};
  return new Vonage(
    { apiKey: config.apiKey, apiSecret: config.apiSecret, applicationId: config.applicationId, privateKey: config.privateKey },
    { ...hosts, timeout: PROVIDER_CALL_TIMEOUT_MS },
  );
}

/** The `sms` and `voice` senders over one client; `appUrl` is where Vonage calls back (APP_URL). */
export function createVonageSenders(
  config: VonageConfig,
  appUrl: string,
  client: Vonage = createVonageClient(config),
): { sms: ChannelSender; voice: ChannelSender } {
  const secrets = [config.apiSecret, config.privateKey, config.signatureSecret];

  async function deliver(page: OutgoingPage, create: () => Promise<string | undefined>): Promise<SentPage> {
    let id: string | undefined;
    try {
      id = await create();
    } catch (err) {
      throw await toDeliveryError(page, err, secrets);
    }
    return { provider: 'vonage', providerMessageId: id ?? null };
  }

  const sms: ChannelSender = {
    provider: 'vonage',
    send: (page) =>
      deliver(page, async () => {
        // The SDK snake-cases these keys: message_type, client_ref, webhook_url, webhook_version.
        const sent = await client.messages.send({
          channel: 'sms',
          messageType: 'text',
          to: digits(page.to),
          from: config.from,
          text: page.text,
          clientRef: page.notificationId,
          webhookUrl: messageStatusUrl(appUrl),
          webhookVersion: 'v1',
        });
        return sent.messageUUID;
      }),
  };
  const voice: ChannelSender = {
    provider: 'vonage',
    send: async (page) => {
      if (!page.speech) throw permanentFailure('vonage', 'a voice page needs speech (what the call says)');
      if (!config.fromIsNumber) throw rejectedFailure('vonage', `call to ${page.to} not placed: VONAGE_FROM is a sender id, and only a number can call`);
      const speech = page.speech;
      return deliver(page, async () => {
        // The SDK snake-cases the call's keys (event_url) but sends the NCCO as given: Vonage reads it in camelCase.
        const call = await client.voice.createOutboundCall({
          to: [{ type: 'phone', number: digits(page.to) }],
          from: { type: 'phone', number: config.from },
          ncco: callNcco(speech, appUrl),
          eventUrl: [callEventUrl(appUrl)],
          eventMethod: 'POST',
        } as Parameters<Vonage['voice']['createOutboundCall']>[0]);
        return call.uuid;
      });
    },
  };
  return { sms, voice };
}

/**
 * Answers an SMS reply with an SMS (what the reply did), as Twilio's inbound hook answers in its
 * TwiML: Vonage's inbound webhook takes no answer, so this is one more Messages API message.
 */
export function createVonageReplier(config: VonageConfig, client: Vonage = createVonageClient(config)): (to: string, text: string) => Promise<void> {
  return async (to, text) => {
    await client.messages.send({ channel: 'sms', messageType: 'text', to: digits(to), from: config.from, text });
  };
}

/** The registry's `vonage` provider: SMS and voice over one client, once the VONAGE_* group is set. */
export const vonageProvider: ChannelProvider = (notify) => {
  const config = vonageSettings(notify);
  return (
    config && {
      description: `Vonage, from ${config.from}${config.apiUrl ? ` via ${config.apiUrl}` : ''}`,
      connect: () => createVonageSenders(config, notify.appUrl),
    }
  );
};

/** What a refusal's body says (RFC 7807: title, detail, invalid_parameters). */
interface Problem {
  title?: unknown;
  detail?: unknown;
  invalid_parameters?: Array<{ name?: unknown; reason?: unknown }>;
}

/**
 * Sorts a failed request: a number Vonage calls invalid stops the page and disables the contact
 * method; another 4xx (bar 401, 403 and 429) refuses this page for good; an answer that did not
 * take it (429, 5xx, bad credentials) is retried unmarked; no answer is retried, marked.
 */
async function toDeliveryError(page: OutgoingPage, err: unknown, secrets: Array<string | undefined>): Promise<Error> {
  const what = page.channel === 'voice' ? 'call' : 'SMS';
  const status = statusOf(err);
  if (status === undefined) return retryableFailure('vonage', `${what} not sent: ${describeError(err)}`, secrets);
  const problem = await problemOf(err);
  const said = [problem.title, problem.detail].filter((v) => typeof v === 'string' && v).join(': ') || describeError(err);
  const invalidTo = problem.invalid_parameters?.some((p) => typeof p.name === 'string' && /^to\b/.test(p.name));
  if (invalidTo) return permanentFailure('vonage', `${what} to ${page.to} refused: invalid number (HTTP ${status}: ${said})`, secrets);
  if (status === 401 || status === 403 || status === 429 || status >= 500)
    return notAcceptedFailure('vonage', `${what} not accepted: HTTP ${status}: ${said}`, secrets);
  return rejectedFailure('vonage', `${what} to ${page.to} refused: HTTP ${status}: ${said}`, secrets);
}

/** The HTTP status of the SDK's error, when Vonage answered. */
function statusOf(err: unknown): number | undefined {
  const e = err as { response?: { status?: unknown }; status?: unknown } | null;
  const status = e?.response?.status ?? e?.status;
  return typeof status === 'number' ? status : undefined;
}

/** How long a refusal's body is waited for: its status already said it was not taken. */
const PROBLEM_READ_MS = 2_000;

/** The refusal's body (the SDK's error keeps the unread answer), when it comes in time and is JSON. */
async function problemOf(err: unknown): Promise<Problem> {
  const response = (err as { response?: { text?: () => Promise<string>; bodyUsed?: boolean } } | null)?.response;
  if (!response?.text || response.bodyUsed) return {};
  let timer: NodeJS.Timeout | undefined;
  try {
    const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(''), PROBLEM_READ_MS)));
    const parsed: unknown = JSON.parse((await Promise.race([response.text(), late])) || '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Problem) : {};
  } catch {
    // An answer that is not JSON says nothing more than its status.
    return {};
  } finally {
    clearTimeout(timer);
  }
}
