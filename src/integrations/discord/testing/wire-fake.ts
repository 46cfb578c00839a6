import { createServer } from 'node:http';
import { randomInt } from 'node:crypto';
import { close, listen, readBody } from '../../testing/http-util';
import type { DiscordMessage } from '../embed';

/** The limits Discord's execute-webhook enforces on embeds (its 400 "Invalid Form Body" otherwise). */
const LIMITS = { title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, footer: 2048, total: 6000, embeds: 10 };

/** One POST the fake accepted: the webhook it named, whether `?wait=true` was asked, the message. */
export interface DiscordPost {
  webhookId: string;
  token: string;
  wait: boolean;
  message: DiscordMessage;
}

/** How the fake answers: `ok`; `rateLimited` 429 with retry_after (seconds); `fail` a status; `unknown` 404 Unknown Webhook. */
export type DiscordMode = { kind: 'ok' } | { kind: 'rateLimited'; retryAfter: number; times: number } | { kind: 'fail'; status: number } | { kind: 'unknown' };

/** Why a message breaks Discord's embed rules, as its 400 would say; empty when it fits. */
export function embedProblems(body: unknown): string[] {
  const m = body as Partial<DiscordMessage> & { content?: unknown };
  const problems: string[] = [];
  if (!Array.isArray(m?.embeds) || m.embeds.length === 0) return ['no embeds'];
  if (m.embeds.length > LIMITS.embeds) problems.push('more than 10 embeds');
  let total = 0;
  for (const [i, e] of m.embeds.entries()) {
    const len = (s: unknown) => (typeof s === 'string' ? s.length : 0);
    if (len(e.title) > LIMITS.title) problems.push(`embeds.${i}.title over ${LIMITS.title}`);
    if (len(e.description) > LIMITS.description) problems.push(`embeds.${i}.description over ${LIMITS.description}`);
    if ((e.fields ?? []).length > LIMITS.fields) problems.push(`embeds.${i}.fields over ${LIMITS.fields}`);
    for (const [j, f] of (e.fields ?? []).entries()) {
      if (!f.name || !f.value) problems.push(`embeds.${i}.fields.${j} empty`);
      if (len(f.name) > LIMITS.fieldName) problems.push(`embeds.${i}.fields.${j}.name over ${LIMITS.fieldName}`);
      if (len(f.value) > LIMITS.fieldValue) problems.push(`embeds.${i}.fields.${j}.value over ${LIMITS.fieldValue}`);
    }
    if (typeof e.color !== 'number' || e.color < 0 || e.color > 0xffffff) problems.push(`embeds.${i}.color not an RGB integer`);
    total += len(e.title) + len(e.description) + len(e.footer?.text) + (e.fields ?? []).reduce((n, f) => n + len(f.name) + len(f.value), 0);
  }
  if (total > LIMITS.total) problems.push(`embeds total over ${LIMITS.total}`);
  return problems;
}

/**
 * Discord's execute-webhook endpoint for tests, on 127.0.0.1 (DISCORD_API_URL points at it):
 * `POST /api/webhooks/{id}/{token}`, a JSON body checked against the embed limits (400 with
 * Discord's error shape when broken), recorded, answered with the message created when
 * `?wait=true` (204 otherwise), or as `mode` says.
 */
export async function startDiscordWebhook() {
  const posts: DiscordPost[] = [];
  const refused: string[][] = [];
  let mode: DiscordMode = { kind: 'ok' };
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    void readBody(req).then((raw) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const match = /^\/api\/webhooks\/(\d+)\/([\w-]+)$/.exec(url.pathname);
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      if (req.method !== 'POST' || !match) return json(405, { message: '405: Method Not Allowed', code: 0 });
      if (mode.kind === 'unknown') return json(404, { message: 'Unknown Webhook', code: 10015 });
      if (mode.kind === 'fail') return json(mode.status, { message: 'failure', code: 0 });
      if (mode.kind === 'rateLimited' && mode.times > 0) {
        mode.times -= 1;
        return json(
          429,
          { message: 'You are being rate limited.', retry_after: mode.retryAfter, global: false },
          { 'retry-after': String(Math.ceil(mode.retryAfter)) },
        );
      }
      if (!/^application\/json/.test(req.headers['content-type'] ?? '')) return json(400, { message: 'Cannot send an empty message', code: 50006 });
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return json(400, { message: 'The request body contains invalid JSON.', code: 50109 });
      }
      const problems = embedProblems(body);
      if (problems.length > 0) {
        refused.push(problems);
        return json(400, { message: 'Invalid Form Body', code: 50035, errors: problems });
      }
      const wait = url.searchParams.get('wait') === 'true';
      posts.push({ webhookId: match[1], token: match[2], wait, message: body as DiscordMessage });
      if (!wait) return res.writeHead(204).end();
      json(200, { id: String(randomInt(1, 2 ** 47)), type: 0, channel_id: '1', webhook_id: match[1], embeds: (body as DiscordMessage).embeds });
    });
  });
  const port = await listen(server);
  return {
    /** What DISCORD_API_URL is set to. */
    apiUrl: `http://127.0.0.1:${port}`,
    posts,
    /** The embed problems of each refused post. */
    refused,
    get requests(): number {
      return requests;
    },
    set(next: DiscordMode): void {
      mode = next;
    },
    close: () => close(server),
  };
}

export type DiscordWebhookFake = Awaited<ReturnType<typeof startDiscordWebhook>>;
