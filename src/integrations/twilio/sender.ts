/** SMS and voice pages through the `twilio` SDK (docs/architecture.md, "Integrations"). */
import twilio from 'twilio';
import RequestClient from 'twilio/lib/base/RequestClient';
import { twilioSettings, type TwilioConfig } from './config';
import { PROVIDER_CALL_TIMEOUT_MS } from '../../domain/paging/attempt-timeouts';
import { describeError, notAcceptedFailure, permanentFailure, retryableFailure } from '../failures';
import type { ChannelProvider, ChannelSender, OutgoingPage, SentPage } from '../types';

export type { TwilioConfig };

/**
 * Twilio error codes that say the recipient cannot be reached this way, so retrying is useless:
 * https://www.twilio.com/docs/api/errors
 */
const PERMANENT_CODES: Record<number, string> = {
  21211: 'invalid To number',
  21214: 'To number cannot be reached',
  21217: 'To number is not a valid phone number',
  21408: 'sending to this region is not enabled',
  21610: 'the recipient replied STOP (unsubscribed)',
  21612: 'To number is not reachable via SMS',
  21614: 'To number is not a mobile number',
  13224: 'To number is not a valid phone number',
};

/**
 * The SDK's HTTP client with every request moved to `baseUrl` (TWILIO_API_BASE_URL): the SDK
 * builds absolute https://api.twilio.com URLs, and a custom `httpClient` is its supported hook.
 */
class RebasingRequestClient extends RequestClient {
  constructor(private readonly baseUrl: string) {
    super({ timeout: PROVIDER_CALL_TIMEOUT_MS });
  }

  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const original = new URL(opts.uri);
    return super.request({ ...opts, uri: `${this.baseUrl}${original.pathname}${original.search}` });
  }
}

/** A Twilio REST client for the configured account, pointed at TWILIO_API_BASE_URL when set. */
export function createTwilioClient(config: TwilioConfig): twilio.Twilio {
  const httpClient = config.apiBaseUrl ? new RebasingRequestClient(config.apiBaseUrl) : new RequestClient({ timeout: PROVIDER_CALL_TIMEOUT_MS });
  return twilio(config.accountSid, config.authToken, { httpClient });
}

/** The `sms` and `voice` senders over one Twilio client. */
export function createTwilioSenders(config: TwilioConfig, client: twilio.Twilio = createTwilioClient(config)): { sms: ChannelSender; voice: ChannelSender } {
  const secrets = [config.authToken];

  async function deliver(page: OutgoingPage, create: () => Promise<{ sid: string }>): Promise<SentPage> {
    try {
      const { sid } = await create();
      return { provider: 'twilio', providerMessageId: sid };
    } catch (err) {
      throw toDeliveryError(page, err, secrets);
    }
  }

  const sms: ChannelSender = {
    provider: 'twilio',
    send: (page) =>
      deliver(page, () =>
        client.messages.create({
          to: page.to,
          from: config.fromNumber,
          body: page.text,
          ...(page.statusCallbackUrl && { statusCallback: page.statusCallbackUrl }),
        }),
      ),
  };
  const voice: ChannelSender = {
    provider: 'twilio',
    send: async (page) => {
      if (!page.voiceTwiml) throw permanentFailure('twilio', 'a voice page needs voiceTwiml (what the call says)');
      const twiml = page.voiceTwiml;
      return deliver(page, () =>
        client.calls.create({
          to: page.to,
          from: config.fromNumber,
          twiml,
          // Answered is what confirms a call (docs/reliability.md, "Carriers"): a failover waits for it, not for the hang-up.
          ...(page.statusCallbackUrl && { statusCallback: page.statusCallbackUrl, statusCallbackEvent: ['answered', 'completed'] }),
        }),
      );
    },
  };
  return { sms, voice };
}

/** The registry's `twilio` provider: SMS and voice over one client, once TWILIO_* are set. */
export const twilioProvider: ChannelProvider = (notify) => {
  const config = twilioSettings(notify);
  return (
    config && {
      description: `Twilio, from ${config.fromNumber}${config.apiBaseUrl ? ` via ${config.apiBaseUrl}` : ''}`,
      connect: () => createTwilioSenders(config),
    }
  );
};

function toDeliveryError(page: OutgoingPage, err: unknown, secrets: string[]): Error {
  const { status, code } = err as { status?: number; code?: number };
  const what = page.channel === 'voice' ? 'call' : 'SMS';
  if (typeof code === 'number' && PERMANENT_CODES[code]) {
    return permanentFailure('twilio', `${what} to ${page.to} refused: ${PERMANENT_CODES[code]} (Twilio error ${code}: ${describeError(err)})`, secrets);
  }
  if (typeof status === 'number')
    return notAcceptedFailure('twilio', `${what} not accepted: HTTP ${status}${code ? `, Twilio error ${code}` : ''}: ${describeError(err)}`, secrets);
  return retryableFailure('twilio', `${what} not sent: ${describeError(err)}`, secrets);
}
