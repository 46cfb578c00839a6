import { randomBytes } from 'node:crypto';
import http from 'node:http';
import twilio from 'twilio';
import { basicAuth, close, listen, readBody, waitUntil } from '../../testing/http-util';

/** One REST call that reached the fake, accepted or not. */
export interface TwilioRequest {
  kind: 'message' | 'call';
  /** Form fields as Twilio names them: To, From, Body, Twiml, StatusCallback. */
  params: Record<string, string>;
  /** The Basic-auth user the SDK sent (the account SID), or null. */
  username: string | null;
  status: number;
  sid?: string;
  /** Arrival time, ms since the epoch. */
  at: number;
}

/** An answer to one of our webhooks. */
export interface WebhookReply {
  status: number;
  body: string;
}

const sid = (prefix: string) => prefix + randomBytes(16).toString('hex');
const twilioError = (status: number, code: number, message: string) => ({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

/**
 * Twilio at the wire (test/fakes, docs/architecture.md, "Testing"): the REST API the SDK calls for SMS and calls,
 * checked like Twilio checks it, and Twilio calling us back with signed webhooks.
 */
export async function startTwilioFake(opts: {
  accountSid: string;
  authToken: string;
  /** Hears every request the fake took, once its answer is written (e.g. to report on an SMS the moment it arrived). */
  onAccepted?: (r: TwilioRequest) => void;
}) {
  const requests: TwilioRequest[] = [];
  /** Every SMS or call request as it arrives (before any delay), by its To number. */
  const arrivals: Array<{ kind: TwilioRequest['kind']; to: string; at: number }> = [];
  const failures = new Map<string, { status: number; code?: number; message: string }>();
  /** Per number: how long Twilio takes to answer a request to it. */
  const delays = new Map<string, number>();
  /** Per number: how many more requests are accepted but never answered (the connection drops). */
  const drops = new Map<string, number>();

  const server = http.createServer(async (req, res) => {
    const body = new URLSearchParams(await readBody(req));
    const params = Object.fromEntries(body.entries());
    const m = /^\/2010-04-01\/Accounts\/([^/]+)\/(Messages|Calls)\.json$/.exec((req.url ?? '').split('?')[0]);
    const auth = basicAuth(req.headers.authorization);
    const answer = (status: number, json: object, record?: Omit<TwilioRequest, 'at' | 'status' | 'params' | 'username'>) => {
      const request = record && { ...record, params, username: auth?.username ?? null, status, at: Date.now() };
      if (request) requests.push(request);
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(json));
      if (request && status < 300) opts.onAccepted?.(request);
    };
    if (!m || req.method !== 'POST') return answer(404, twilioError(404, 20404, 'The requested resource was not found'));
    const kind = m[2] === 'Messages' ? 'message' : 'call';
    arrivals.push({ kind, to: params.To ?? '', at: Date.now() });
    if (auth?.username !== opts.accountSid || auth.password !== opts.authToken)
      return answer(401, { ...twilioError(401, 20003, 'Authenticate'), detail: 'Your AccountSid or AuthToken was incorrect.' }, { kind });
    if (m[1] !== opts.accountSid) return answer(404, twilioError(404, 20404, 'The requested resource was not found'), { kind });
    const delay = delays.get(params.To ?? '');
    if (delay) await new Promise((r) => setTimeout(r, delay));
    const failure = failures.get(params.To ?? '');
    if (failure)
      return answer(
        failure.status,
        failure.code ? twilioError(failure.status, failure.code, failure.message) : { message: failure.message, status: failure.status },
        { kind },
      );
    const created = {
      sid: sid(kind === 'message' ? 'SM' : 'CA'),
      account_sid: opts.accountSid,
      to: params.To,
      from: params.From,
      status: 'queued',
      api_version: '2010-04-01',
      date_created: new Date().toUTCString(),
    };
    const dropsLeft = drops.get(params.To ?? '') ?? 0;
    if (dropsLeft > 0) {
      // Taken, as Twilio would, but the answer is lost on the way back.
      drops.set(params.To!, dropsLeft - 1);
      requests.push({ kind, params, username: auth.username, status: 201, sid: created.sid, at: Date.now() });
      return void req.socket.destroy();
    }
    answer(
      201,
      kind === 'message' ? { ...created, body: params.Body, direction: 'outbound-api', num_segments: '1' } : { ...created, direction: 'outbound-api' },
      { kind, sid: created.sid },
    );
  });
  const port = await listen(server);

  /** POSTs a form to one of our webhooks, signed with X-Twilio-Signature exactly as Twilio signs it. */
  async function callBack(url: string, params: Record<string, string>, signWith = opts.authToken): Promise<WebhookReply> {
    const signature = twilio.getExpectedTwilioSignature(signWith, url, params);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature, 'User-Agent': 'TwilioProxy/1.1' },
      body: new URLSearchParams(params).toString(),
    });
    return { status: res.status, body: await res.text() };
  }

  const accepted = (kind: TwilioRequest['kind']) => requests.filter((r) => r.kind === kind && r.status < 300);

  return {
    /** Base URL for TWILIO_API_BASE_URL. */
    url: `http://127.0.0.1:${port}`,
    /** Every REST call, in answer order, including refused ones. */
    requests,
    /** Every SMS or call request the moment it arrived, answered yet or not. */
    arrivals,
    /** Accepted SMS. */
    messages: () => accepted('message'),
    /** Accepted calls. */
    calls: () => accepted('call'),
    /** Waits for an accepted SMS or call matching `match` (for end-to-end tests). */
    waitFor: (kind: TwilioRequest['kind'], match: (r: TwilioRequest) => boolean = () => true, timeoutMs?: number) =>
      waitUntil(`a Twilio ${kind}`, () => accepted(kind).find(match), timeoutMs),
    /** Makes every request to `to` fail: a Twilio error `code` (e.g. 21211, status 400) or a bare status (e.g. 500). */
    failTo(to: string, failure: { code?: number; status?: number; message?: string }) {
      failures.set(to, { status: failure.status ?? 400, code: failure.code, message: failure.message ?? `The 'To' number ${to} is not a valid phone number.` });
    },
    /** Any signed Twilio callback (e.g. a StatusCallback: MessageSid, MessageStatus); AccountSid is added. */
    callBackTo: (url: string, params: Record<string, string>, signWith?: string) => callBack(url, { AccountSid: opts.accountSid, ...params }, signWith),
    /** Makes every request to `to` wait `ms` before it is answered (and taken). */
    delayTo: (to: string, ms: number) => void delays.set(to, ms),
    /** Takes the next `times` requests to `to` and drops the connection instead of answering. */
    dropResponsesTo: (to: string, times = 1) => void drops.set(to, times),
    /** Makes `to` work again. */
    clearFailure: (to: string) => failures.delete(to),
    /** A person replies to an SMS: Twilio's inbound-message webhook. `signWith` forges the signature. */
    replySms(p: { from: string; to: string; body: string; url: string; signWith?: string; messageSid?: string }): Promise<WebhookReply> {
      const messageSid = p.messageSid ?? sid('SM');
      return callBack(
        p.url,
        {
          AccountSid: opts.accountSid,
          ApiVersion: '2010-04-01',
          Body: p.body,
          From: p.from,
          MessageSid: messageSid,
          NumMedia: '0',
          NumSegments: '1',
          SmsMessageSid: messageSid,
          SmsSid: messageSid,
          SmsStatus: 'received',
          To: p.to,
        },
        p.signWith,
      );
    },
    /** A person presses keys during a call: the <Gather> action webhook. From/To default to the call's. */
    pressKey(p: { callSid: string; digits: string; url: string; from?: string; to?: string; signWith?: string }): Promise<WebhookReply> {
      const call = requests.find((r) => r.sid === p.callSid);
      const from = p.from ?? call?.params.From ?? '';
      const to = p.to ?? call?.params.To ?? '';
      return callBack(
        p.url,
        {
          AccountSid: opts.accountSid,
          ApiVersion: '2010-04-01',
          CallSid: p.callSid,
          CallStatus: 'in-progress',
          Digits: p.digits,
          Direction: 'outbound-api',
          From: from,
          To: to,
        },
        p.signWith,
      );
    },
    close: () => close(server),
  };
}

export type TwilioFake = Awaited<ReturnType<typeof startTwilioFake>>;
