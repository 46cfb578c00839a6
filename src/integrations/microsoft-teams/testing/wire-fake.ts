import { createServer } from 'node:http';
import Ajv from 'ajv';
import cardSchema from './adaptive-card-1.4.schema.json';
import { close, listen, readBody } from '../../testing/http-util';

/** What an Adaptive Card carries that the tests read. */
export interface PostedCard {
  body: Array<{ type: string; text?: string; color?: string; facts?: Array<{ title: string; value: string }> }>;
  actions: Array<{ type: string; title: string; url: string }>;
  [k: string]: unknown;
}

/** One POST the receiver accepted: the card, whether it fits the schema, and why not. */
export interface TeamsPost {
  card: PostedCard;
  valid: boolean;
  errors: string[];
  /** The text of every TextBlock and fact, for matching. */
  text: string;
}

/** How the receiver answers: `ok` 202 (what Workflows answers), `fail` with a status, `down` drops the connection. */
export type TeamsMode = { kind: 'ok' } | { kind: 'fail'; status: number } | { kind: 'down' };

const validateCard = new Ajv({ allErrors: true, strict: true }).compile(cardSchema);

/** The Workflows "message with attachments" envelope around one Adaptive Card; the problems found, if any. */
function envelopeProblems(body: unknown): string[] {
  const b = body as { type?: unknown; attachments?: Array<Record<string, unknown>> };
  if (b?.type !== 'message') return ['type is not "message"'];
  if (!Array.isArray(b.attachments) || b.attachments.length !== 1) return ['not exactly one attachment'];
  const [a] = b.attachments;
  const problems: string[] = [];
  if (a.contentType !== 'application/vnd.microsoft.card.adaptive') problems.push('contentType is not the adaptive card type');
  if (!('contentUrl' in a) || a.contentUrl !== null) problems.push('contentUrl is not null');
  if (Object.keys(a).some((k) => !['contentType', 'contentUrl', 'content'].includes(k))) problems.push('extra attachment fields');
  return problems;
}

/**
 * A Microsoft Teams Workflows webhook for tests, on 127.0.0.1: records each POST, checks its
 * envelope and validates its card against the Adaptive Card 1.4 schema (subset) with ajv, and
 * answers as `mode` says; `down` drops every connection as a receiver that is away would.
 */
export async function startTeamsWebhook() {
  const posts: TeamsPost[] = [];
  let mode: TeamsMode = { kind: 'ok' };
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    if (mode.kind === 'down') {
      req.socket.destroy();
      return;
    }
    void readBody(req).then((raw) => {
      if (mode.kind === 'fail') {
        res.writeHead(mode.status).end();
        return;
      }
      const body = JSON.parse(raw) as { attachments?: Array<{ content?: PostedCard }> };
      const card = body.attachments?.[0]?.content as PostedCard;
      const problems = envelopeProblems(body);
      const valid = problems.length === 0 && validateCard(card);
      const errors = [...problems, ...(validateCard.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)];
      const text = (card?.body ?? []).flatMap((el) => [el.text ?? '', ...(el.facts ?? []).map((f) => `${f.title}: ${f.value}`)]).join('\n');
      posts.push({ card, valid: Boolean(valid), errors, text });
      res.writeHead(202, { 'content-type': 'text/plain' }).end();
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/workflows/klaxon/triggers/manual/paths/invoke?sig=secret-signature`,
    posts,
    /** Every request that came, answered or not. */
    get requests(): number {
      return requests;
    },
    set(next: TeamsMode): void {
      mode = next;
    },
    close: () => close(server),
  };
}

export type TeamsWebhookFake = Awaited<ReturnType<typeof startTeamsWebhook>>;
