import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { close, listen, readBody, waitUntil } from '../../testing/http-util';

/** One v3 mail/send call that reached the fake. */
export interface SendgridRequest {
  /** The JSON body as the SDK sent it (personalizations, from, subject, content, custom_args). */
  body: any;
  /** True when the bearer key matched. */
  authorized: boolean;
  status: number;
  messageId?: string;
  /** Arrival time, ms since the epoch. */
  at: number;
}

const errors = (message: string, field: string | null = null) => ({ errors: [{ message, field, help: null }] });

/** SendGrid v3 at the wire: `POST /v3/mail/send` with a Bearer key, 202 and X-Message-Id. */
export async function startSendgridFake(opts: { apiKey: string }) {
  const requests: SendgridRequest[] = [];
  const failures = new Map<string, number>();

  const server = http.createServer(async (req, res) => {
    const text = await readBody(req);
    const authorized = req.headers.authorization === `Bearer ${opts.apiKey}`;
    const answer = (status: number, json?: object, headers: Record<string, string> = {}) => {
      res.writeHead(status, { ...(json && { 'Content-Type': 'application/json' }), ...headers }).end(json ? JSON.stringify(json) : undefined);
    };
    if (req.method !== 'POST' || req.url !== '/v3/mail/send') return answer(404, errors('Not Found'));
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      return answer(400, errors('Bad Request'));
    }
    const record = (status: number, messageId?: string) => requests.push({ body, authorized, status, messageId, at: Date.now() });
    if (!authorized) return (record(401), answer(401, errors('The provided authorization grant is invalid, expired, or revoked')));
    const to: string[] = (body.personalizations ?? []).flatMap((p: { to?: Array<{ email: string }> }) => (p.to ?? []).map((t) => t.email));
    const failing = to.find((address) => failures.has(address));
    if (failing) {
      const status = failures.get(failing)!;
      record(status);
      return status === 400
        ? answer(400, errors('Does not contain a valid address.', 'personalizations.0.to.0.email'))
        : answer(status, errors('Internal Server Error'));
    }
    const messageId = randomBytes(16).toString('base64url');
    record(202, messageId);
    answer(202, undefined, { 'X-Message-Id': messageId });
  });
  const port = await listen(server);

  const accepted = () => requests.filter((r) => r.status === 202);
  return {
    /** Base URL for SENDGRID_API_BASE_URL. */
    url: `http://127.0.0.1:${port}`,
    /** Every call, in arrival order, including refused ones. */
    requests,
    /** Accepted emails. */
    emails: accepted,
    /** Waits for an accepted email matching `match`. */
    waitFor: (match: (r: SendgridRequest) => boolean = () => true, timeoutMs?: number) =>
      waitUntil('a SendGrid email', () => accepted().find(match), timeoutMs),
    /** Makes mail to `address` fail: 400 (bad address) by default, or another status such as 500. */
    failAddress: (address: string, status = 400) => failures.set(address, status),
    clearFailure: (address: string) => failures.delete(address),
    close: () => close(server),
  };
}

export type SendgridFake = Awaited<ReturnType<typeof startSendgridFake>>;
