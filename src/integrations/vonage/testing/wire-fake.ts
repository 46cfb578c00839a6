import { createHash, createHmac, createPublicKey, randomUUID, verify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import { basicAuth, close, listen, readBody, waitUntil } from '../../testing/http-util';

/** One REST call that reached the fake, accepted or not. */
export interface VonageRequest {
  kind: 'message' | 'call';
  /** The JSON body as the SDK sent it (snake_case REST fields; the NCCO in camelCase). */
  body: Record<string, unknown>;
  /** How it authenticated: the application's JWT, the key and secret, or nothing that passed. */
  auth: 'jwt' | 'basic' | null;
  status: number;
  /** The message_uuid or the call's uuid, when accepted. */
  id?: string;
  /** Arrival time, ms since the epoch. */
  at: number;
}

/** An answer to one of Klaxon's callbacks. */
export interface CallbackReply {
  status: number;
  body: string;
}

/** How a callback is signed: by default as Vonage signs it; else with another secret, not at all, or over another body. */
export interface Signing {
  signWith?: string;
  unsigned?: boolean;
  /** Signs this body but sends the real one (a body altered on the way). */
  signedBody?: string;
}

/** An error as Vonage's REST APIs answer it (RFC 7807). */
const problem = (status: number, title: string, detail: string, invalid?: Array<{ name: string; reason: string }>) => ({
  status,
  json: {
    type: `https://developer.vonage.com/api-errors#${status}`,
    title,
    detail,
    instance: randomUUID(),
    ...(invalid && { invalid_parameters: invalid }),
  },
});

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const E164_DIGITS = /^[1-9]\d{6,14}$/;
/** The keys each NCCO action Klaxon uses may carry (Vonage's NCCO reference); any other is refused, as a snake_case key would be ignored there. */
const NCCO_KEYS: Record<string, readonly string[]> = {
  talk: ['action', 'text', 'bargeIn', 'loop', 'level', 'language', 'style', 'premium'],
  input: ['action', 'type', 'dtmf', 'speech', 'eventUrl', 'eventMethod'],
};
const DTMF_KEYS = ['timeOut', 'maxDigits', 'submitOnHash'];

/** Why an NCCO would be refused, or null. */
function nccoProblem(ncco: unknown): string | null {
  if (!Array.isArray(ncco) || ncco.length === 0) return 'ncco must be a non-empty array';
  for (const [i, action] of ncco.entries()) {
    const a = action as Record<string, unknown>;
    const keys = NCCO_KEYS[String(a?.action)];
    if (!keys) return `ncco[${i}].action ${String(a?.action)} is not one the fake knows`;
    const unknown = Object.keys(a).find((k) => !keys.includes(k));
    if (unknown) return `ncco[${i}] has an unknown field ${unknown}`;
    if (a.action === 'talk' && (typeof a.text !== 'string' || a.text.length === 0)) return `ncco[${i}].text is required`;
    if (a.action === 'input') {
      const dtmf = a.dtmf as Record<string, unknown> | undefined;
      if (!Array.isArray(a.type) || !a.type.includes('dtmf')) return `ncco[${i}].type must include dtmf`;
      if (dtmf && Object.keys(dtmf).some((k) => !DTMF_KEYS.includes(k))) return `ncco[${i}].dtmf has an unknown field`;
      if (!Array.isArray(a.eventUrl) || typeof a.eventUrl[0] !== 'string') return `ncco[${i}].eventUrl must be an array of one URL`;
    }
  }
  return null;
}

/**
 * Vonage at the wire (docs/integrations/vonage.md, "Tests"): the REST API the SDK calls for SMS
 * (Messages API, `POST /v1/messages`) and calls (Voice API, `POST /v1/calls`), checked like
 * Vonage checks it (the application's RS256 JWT, or the key and secret for messages; numbers;
 * the NCCO's fields), and Vonage calling Klaxon back with JWTs signed by the signature secret.
 */
export async function startVonageFake(opts: { apiKey: string; apiSecret: string; applicationId: string; privateKey: string; signatureSecret: string }) {
  const publicKey: KeyObject = createPublicKey(opts.privateKey);
  const requests: VonageRequest[] = [];
  /** Per number (digits): the error every request to it is answered with. */
  const failures = new Map<string, { status: number; json: object }>();

  /** The application's JWT as the SDK makes it: RS256 by its private key, naming the application, unexpired. */
  function jwtPasses(header: string | undefined): boolean {
    const m = /^Bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(header ?? '');
    if (!m) return false;
    try {
      const head = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) as { alg?: string };
      const claims = JSON.parse(Buffer.from(m[2], 'base64url').toString('utf8')) as { application_id?: string; exp?: number; iat?: number };
      const now = Math.floor(Date.now() / 1000);
      return (
        head.alg === 'RS256' &&
        verify('RSA-SHA256', Buffer.from(`${m[1]}.${m[2]}`), publicKey, Buffer.from(m[3], 'base64url')) &&
        claims.application_id === opts.applicationId &&
        (claims.exp === undefined || claims.exp > now) &&
        (claims.iat === undefined || claims.iat <= now + 60)
      );
    } catch {
      return false;
    }
  }

  const server = http.createServer(async (req, res) => {
    const text = await readBody(req);
    const path = (req.url ?? '').split('?')[0];
    const kind = path === '/v1/messages' ? 'message' : path === '/v1/calls' ? 'call' : null;
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = {};
    }
    const basic = basicAuth(req.headers.authorization);
    const auth = jwtPasses(req.headers.authorization)
      ? 'jwt'
      : kind === 'message' && basic?.username === opts.apiKey && basic.password === opts.apiSecret
        ? 'basic'
        : null;
    const answer = (status: number, json: object, id?: string) => {
      if (kind) requests.push({ kind, body, auth, status, id, at: Date.now() });
      res.writeHead(status, { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' }).end(JSON.stringify(json));
    };
    const refuse = (p: { status: number; json: object }) => answer(p.status, p.json);
    if (!kind || req.method !== 'POST') return refuse(problem(404, 'Not Found', 'The requested resource does not exist'));
    if (!auth) return refuse(problem(401, 'Unauthorized', 'You did not provide correct credentials.'));
    if (kind === 'message') {
      if (body.channel !== 'sms' || body.message_type !== 'text') return refuse(problem(422, 'Invalid params', 'only SMS text is faked'));
      if (typeof body.text !== 'string' || body.text.length === 0)
        return refuse(problem(422, 'Invalid params', 'text is required', [{ name: 'text', reason: 'required' }]));
      if (typeof body.to !== 'string' || !E164_DIGITS.test(body.to))
        return refuse(problem(422, 'Invalid params', 'The value of one or more parameters is invalid.', [{ name: 'to', reason: 'Invalid value' }]));
      const failure = failures.get(body.to);
      if (failure) return refuse(failure);
      const messageUuid = randomUUID();
      return answer(202, { message_uuid: messageUuid }, messageUuid);
    }
    const to = (body.to as Array<{ type?: string; number?: string }> | undefined)?.[0];
    const from = body.from as { type?: string; number?: string } | undefined;
    if (to?.type !== 'phone' || typeof to.number !== 'string' || !E164_DIGITS.test(to.number))
      return refuse(problem(400, 'Bad Request', 'Invalid to', [{ name: 'to', reason: 'must be a phone number in E.164 format' }]));
    if (from?.type !== 'phone' || typeof from.number !== 'string' || !E164_DIGITS.test(from.number))
      return refuse(problem(400, 'Bad Request', 'Invalid from', [{ name: 'from', reason: 'must be a phone number' }]));
    const invalidNcco = nccoProblem(body.ncco);
    if (invalidNcco) return refuse(problem(400, 'Invalid NCCO', invalidNcco));
    const failure = failures.get(to.number);
    if (failure) return refuse(failure);
    const uuid = randomUUID();
    answer(201, { uuid, status: 'started', direction: 'outbound', conversation_uuid: `CON-${randomUUID()}` }, uuid);
  });
  const port = await listen(server);

  /** A JWT as Vonage signs a callback: HS256 with the signature secret, over the body's SHA-256. */
  function callbackJwt(body: string, secret: string): string {
    const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const claims = b64url(
      JSON.stringify({
        iat: Math.floor(Date.now() / 1000),
        jti: randomUUID(),
        iss: 'Vonage',
        payload_hash: createHash('sha256').update(body).digest('hex'),
        api_key: opts.apiKey,
        application_id: opts.applicationId,
      }),
    );
    const signature = createHmac('sha256', secret).update(`${head}.${claims}`).digest('base64url');
    return `${head}.${claims}.${signature}`;
  }

  /** POSTs JSON to one of Klaxon's callbacks, signed as Vonage signs it (or as `signing` says). */
  async function callBack(url: string, payload: object, signing: Signing = {}): Promise<CallbackReply> {
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': 'Vonage-Callback/1.0' };
    if (!signing.unsigned) headers.Authorization = `Bearer ${callbackJwt(signing.signedBody ?? body, signing.signWith ?? opts.signatureSecret)}`;
    const res = await fetch(url, { method: 'POST', headers, body });
    return { status: res.status, body: await res.text() };
  }

  const accepted = (kind: VonageRequest['kind']) => requests.filter((r) => r.kind === kind && r.status < 300);

  /** The input action's eventUrl in a call's NCCO (the first input). */
  const inputUrlOf = (ncco: unknown): string | undefined =>
    (ncco as Array<{ action: string; eventUrl?: string[] }> | undefined)?.find((a) => a.action === 'input')?.eventUrl?.[0];

  return {
    /** Base URL for VONAGE_API_URL. */
    url: `http://127.0.0.1:${port}`,
    /** Every REST call, in answer order, including refused ones. */
    requests,
    /** Accepted SMS. */
    messages: () => accepted('message'),
    /** Accepted calls. */
    calls: () => accepted('call'),
    /** Waits for an accepted SMS or call matching `match`. */
    waitFor: (kind: VonageRequest['kind'], match: (r: VonageRequest) => boolean = () => true, timeoutMs?: number) =>
      waitUntil(`a Vonage ${kind}`, () => accepted(kind).find(match), timeoutMs),
    /** Makes every request to `to` (E.164, with or without +) fail: an HTTP status with Vonage's problem body. */
    failTo(to: string, failure: { status: number; title?: string; detail?: string; invalidParameter?: string }) {
      const p = problem(
        failure.status,
        failure.title ?? 'Error',
        failure.detail ?? 'refused',
        failure.invalidParameter ? [{ name: failure.invalidParameter, reason: 'Invalid value' }] : undefined,
      );
      failures.set(to.replace('+', ''), p);
    },
    /** Makes `to` work again. */
    clearFailure: (to: string) => void failures.delete(to.replace('+', '')),
    /** Any signed callback. */
    callBack,
    /** A message's status (Messages API v1 status webhook) to the message's webhook_url. */
    messageStatus(message: VonageRequest, status: 'submitted' | 'delivered' | 'rejected' | 'undeliverable', signing?: Signing & { url?: string }) {
      const failed = status === 'rejected' || status === 'undeliverable';
      return callBack(
        signing?.url ?? String(message.body.webhook_url),
        {
          message_uuid: message.id,
          to: message.body.to,
          from: message.body.from,
          timestamp: new Date().toISOString(),
          status,
          channel: 'sms',
          ...(message.body.client_ref ? { client_ref: message.body.client_ref } : {}),
          ...(failed && {
            error: { type: 'https://developer.vonage.com/api-errors/messages#1320', title: 1320, detail: 'Message failed: the number is unreachable' },
          }),
        },
        signing,
      );
    },
    /** A call's event (answered, completed, busy, …) to the call's event_url. */
    callEvent(call: VonageRequest, status: string, signing?: Signing) {
      const to = (call.body.to as Array<{ number: string }>)[0].number;
      return callBack(
        String((call.body.event_url as string[])[0]),
        {
          from: (call.body.from as { number: string }).number,
          to,
          uuid: call.id,
          conversation_uuid: `CON-${call.id}`,
          status,
          direction: 'outbound',
          timestamp: new Date().toISOString(),
        },
        signing,
      );
    },
    /** A person texts the application's number: the Messages API inbound webhook (v1) to `url`, Klaxon's `/hooks/vonage/inbound`. */
    inboundSms(p: { from: string; to: string; text: string; url: string; messageUuid?: string } & Signing) {
      return callBack(
        p.url,
        {
          channel: 'sms',
          message_uuid: p.messageUuid ?? randomUUID(),
          message_type: 'text',
          to: p.to.replace('+', ''),
          from: p.from.replace('+', ''),
          text: p.text,
          timestamp: new Date().toISOString(),
          sms: { num_messages: '1' },
        },
        p,
      );
    },
    /** The input action's eventUrl in a call's NCCO, or in an NCCO a callback answered. */
    inputUrlOf,
    /** A person presses `digits` (empty: the input timed out): the input result to the NCCO's eventUrl (or `url`). The reply's body is the NCCO that follows. */
    pressKey(call: VonageRequest, digits: string, signing?: Signing & { url?: string }) {
      const url = signing?.url ?? inputUrlOf(call.body.ncco);
      if (!url) throw new Error('the call has no input action');
      return callBack(
        url,
        {
          from: (call.body.from as { number: string }).number,
          to: (call.body.to as Array<{ number: string }>)[0].number,
          uuid: call.id,
          conversation_uuid: `CON-${call.id}`,
          dtmf: { digits, timed_out: digits === '' },
          speech: { results: [] },
          timestamp: new Date().toISOString(),
        },
        signing,
      );
    },
    close: () => close(server),
  };
}

export type VonageFake = Awaited<ReturnType<typeof startVonageFake>>;
