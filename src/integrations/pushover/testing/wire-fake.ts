import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { close, listen, readBody, waitUntil } from '../../testing/http-util';

/** One messages.json call that reached the fake. */
export interface PushoverMessage {
  /** The form fields as sent (token, user, title, message, priority, retry, expire, callback, url, …). */
  fields: Record<string, string>;
  status: number;
  /** The request id Pushover answers every accepted message with. */
  request?: string;
  /** The receipt of an emergency (priority 2) message. */
  receipt?: string;
  at: number;
}

/** Pushover's key shape: 30 letters and digits. */
const KEY = /^[A-Za-z0-9]{30}$/;
const key = () =>
  randomBytes(30)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, 'x')
    .slice(0, 30);

/**
 * Pushover at the wire: `POST /1/messages.json`, form-encoded, checked as Pushover checks it (the
 * application token, a known user key, a message, priority 2's retry/expire) and answered
 * `{status, request, receipt?}` or `{status: 0, errors, request}` with a 4xx. `acknowledge`
 * does what a person tapping Acknowledge in the app makes Pushover do: POST the receipt's fields
 * to the message's `callback`.
 */
export async function startPushoverFake(opts: { appToken: string; users?: string[] }) {
  const messages: PushoverMessage[] = [];
  const users = new Set(opts.users ?? []);
  /** user key → HTTP status the next messages to it answer (500, 429): a Pushover outage. */
  const failures = new Map<string, number>();

  const server = http.createServer(async (req, res) => {
    const text = await readBody(req);
    const answer = (status: number, json: object) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(json));
    const request = randomBytes(16).toString('hex');
    if (req.method !== 'POST' || req.url !== '/1/messages.json') return answer(404, { status: 0, errors: ['not found'], request });
    const fields = Object.fromEntries(new URLSearchParams(text));
    const record = (status: number, extra: Partial<PushoverMessage> = {}) => messages.push({ fields, status, at: Date.now(), ...extra });
    const refuse = (errors: string[], more: Record<string, string> = {}) => (record(400), answer(400, { ...more, status: 0, errors, request }));
    if (fields.token !== opts.appToken) return refuse(['application token is invalid'], { token: 'invalid' });
    if (!KEY.test(fields.user ?? '') || !users.has(fields.user))
      return refuse(['user identifier is not a valid user, group, or subscribed user key'], { user: 'invalid' });
    if (!fields.message) return refuse(['message cannot be blank'], { message: 'invalid' });
    const failing = failures.get(fields.user);
    if (failing) return (record(failing), answer(failing, { status: 0, errors: ['service unavailable'], request }));
    if (fields.priority === '2') {
      const retry = Number(fields.retry);
      const expire = Number(fields.expire);
      if (!(retry >= 30)) return refuse(['retry is invalid (at least 30 seconds)'], { retry: 'invalid' });
      if (!(expire > 0 && expire <= 10800)) return refuse(['expire is invalid (at most 10800 seconds)'], { expire: 'invalid' });
      const receipt = key();
      record(200, { request, receipt });
      return answer(200, { status: 1, request, receipt });
    }
    record(200, { request });
    answer(200, { status: 1, request });
  });
  const port = await listen(server);

  const accepted = () => messages.filter((m) => m.status === 200);
  return {
    /** Base URL for PUSHOVER_API_URL. */
    url: `http://127.0.0.1:${port}`,
    /** Every call, in arrival order, refused ones too. */
    messages,
    accepted,
    /** A new user key Pushover knows (a person who installed the app). */
    addUser(): string {
      const user = key();
      users.add(user);
      return user;
    },
    /** Waits for an accepted message matching `match`. */
    waitFor: (match: (m: PushoverMessage) => boolean = () => true, timeoutMs?: number) =>
      waitUntil('a Pushover message', () => accepted().find(match), timeoutMs),
    /** Makes messages to `user` fail with this status (500: Pushover is down) until cleared. */
    failUser: (user: string, status = 500) => failures.set(user, status),
    clearFailure: (user: string) => failures.delete(user),
    /**
     * Someone acknowledged the emergency message in the app: Pushover POSTs the receipt to its
     * callback, form-encoded. Answers Klaxon's status and JSON.
     */
    async acknowledge(message: PushoverMessage, device = 'pixel'): Promise<{ status: number; body: any }> {
      if (!message.receipt || !message.fields.callback) throw new Error('only an emergency message with a callback can be acknowledged');
      const res = await fetch(message.fields.callback, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          receipt: message.receipt,
          acknowledged: '1',
          acknowledged_at: String(Math.floor(Date.now() / 1000)),
          acknowledged_by: message.fields.user,
          acknowledged_by_device: device,
        }).toString(),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
    close: () => close(server),
  };
}

export type PushoverFake = Awaited<ReturnType<typeof startPushoverFake>>;
