/**
 * Android push pages through FCM HTTP v1, with an OAuth2 bearer from google-auth-library. Both the
 * token grant and the send go through the bounded client (src/services/outbound) as a fixed
 * third-party host (FCM_BASE_URL, the key's token_uri): 10 s, 64 KiB of answer, no redirect.
 */
import { JWT } from 'google-auth-library';
import { fcmSettings, type FcmConfig } from './config';
import { PROVIDER_CALL_TIMEOUT_MS } from '../../domain/paging/attempt-timeouts';
import { OutboundError, outboundClient, outboundFetch } from '../../services/outbound';
import { describeError, notAcceptedFailure, permanentFailure, retryableFailure } from '../failures';
import type { ChannelProvider, ChannelSender, OutgoingPage, SendOptions, SentPage } from '../types';

export type { FcmConfig };

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** Where the library always sends the JWT grant, whatever the key file's `token_uri` says. */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** FcmError codes meaning this registration token will never work: stop paging it. */
const PERMANENT_CODES = new Set(['UNREGISTERED', 'INVALID_ARGUMENT', 'SENDER_ID_MISMATCH']);

/**
 * A service-account JWT client. The library's token endpoint is fixed, so a request interceptor on
 * its own transporter moves the grant to the key file's `token_uri` (tests, private clouds).
 */
export function createFcmAuth(config: FcmConfig): JWT {
  const account = config.serviceAccount;
  const jwt = new JWT({
    email: account.client_email,
    key: account.private_key,
    keyId: account.private_key_id,
    scopes: [SCOPE],
    // The bounded client's fetch: gaxios would otherwise use an unbounded one (and import node-fetch, which jest's vm refuses).
    transporterOptions: { fetchImplementation: outboundFetch({ target: 'fixed', deadlineMs: PROVIDER_CALL_TIMEOUT_MS }) as unknown as typeof fetch },
  });
  const tokenUri = account.token_uri;
  if (tokenUri && tokenUri !== GOOGLE_TOKEN_URL) {
    jwt.transporter.interceptors.request.add({
      resolved: async (opts) => (String(opts.url) === GOOGLE_TOKEN_URL ? { ...opts, url: new URL(tokenUri) } : opts),
    });
  }
  return jwt;
}

/** The v1 message: a visible notification, our data, and the action category on Android. */
function toMessage(page: OutgoingPage) {
  const data = { ...page.push?.data, notification_id: page.notificationId, ...(page.push && { category: page.push.category }) };
  return {
    message: {
      token: page.to,
      notification: { title: page.subject, body: page.text },
      data,
      android: { priority: 'HIGH', ttl: '3600s', notification: { ...(page.push && { click_action: page.push.category }), sound: 'default' } },
    },
  };
}

/** The `push_android` sender over FCM HTTP v1 (`messages:send`). */
export function createFcmSender(config: FcmConfig, auth: JWT = createFcmAuth(config)): ChannelSender {
  const secrets = [config.serviceAccount.private_key];
  const url = `${config.baseUrl}/v1/projects/${encodeURIComponent(config.projectId)}/messages:send`;
  const client = outboundClient({ target: 'fixed', keepAlive: true });
  return {
    provider: 'fcm',
    async send(page: OutgoingPage, opts: SendOptions = {}): Promise<SentPage> {
      // One budget for the token and the send: the call as a whole stays within it.
      const deadline = Date.now() + PROVIDER_CALL_TIMEOUT_MS;
      let token: string | null | undefined;
      try {
        token = (await auth.getAccessToken()).token;
      } catch (err) {
        // Nothing was sent yet: a retry cannot double the page.
        throw notAcceptedFailure('fcm', `could not obtain an access token: ${describeError(err)}`, secrets);
      }
      if (!token) throw notAcceptedFailure('fcm', 'could not obtain an access token', secrets);
      let status: number;
      let text = '';
      try {
        const res = await client.request(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify(toMessage(page)),
          deadlineMs: Math.max(1, deadline - Date.now()),
          signal: opts.signal,
        });
        status = res.status;
        text = res.text();
      } catch (err) {
        // An answer whose head came (then too long, or too slow) is judged by its status alone.
        if (!(err instanceof OutboundError) || err.status === null) throw retryableFailure('fcm', `push not sent: ${describeError(err)}`, [...secrets, token]);
        status = err.status;
      }
      let body: { name?: string; error?: FcmErrorBody } = {};
      try {
        body = text ? JSON.parse(text) : {};
      } catch {
        // Not JSON (a proxy's error page): the status says enough.
      }
      if (status >= 200 && status < 300) return { provider: 'fcm', providerMessageId: typeof body.name === 'string' ? body.name : null };
      throw toDeliveryError(page, status, body.error, [...secrets, token]);
    },
    close: async () => client.close(),
  };
}

/** The registry's `fcm` provider: Android push once FCM_SERVICE_ACCOUNT is set. */
export const fcmProvider: ChannelProvider = (notify) => {
  const config = fcmSettings(notify);
  return (
    config && {
      description: `FCM, project ${config.projectId}${config.baseUrl === 'https://fcm.googleapis.com' ? '' : ` via ${config.baseUrl}`}`,
      connect: () => ({ push_android: createFcmSender(config) }),
    }
  );
};

interface FcmErrorBody {
  status?: string;
  message?: string;
  details?: Array<{ '@type'?: string; errorCode?: string }>;
}

function toDeliveryError(page: OutgoingPage, status: number, error: FcmErrorBody | undefined, secrets: string[]): Error {
  const code = error?.details?.find((d) => d.errorCode)?.errorCode ?? error?.status;
  const detail = `${code ?? 'error'}${error?.message ? `: ${error.message}` : ''} (HTTP ${status})`;
  if (code && PERMANENT_CODES.has(code))
    return permanentFailure('fcm', `push to device ${page.to.length > 12 ? `${page.to.slice(0, 8)}…` : page.to} refused: ${detail}`, secrets);
  return notAcceptedFailure('fcm', `push not accepted: ${detail}`, secrets);
}
