/**
 * Vonage's callbacks (docs/integrations/vonage.md), on the app listener under `/hooks/vonage`:
 * `POST /status` (a message's status: the Messages API's `webhook_url`), `/event` (a call's
 * events: the call's `event_url`), `/input?token=…` (a keypress: the NCCO input's `eventUrl`,
 * answered with the NCCO the call goes on with) and `/inbound` (an SMS reply: the application's
 * inbound URL, which the operator sets to it). Vonage signs each with a JWT in
 * `Authorization: Bearer`, HS256 with the account's signature secret, whose `payload_hash` claim
 * is the body's SHA-256: anything unsigned, forged or altered is refused with 401 and changes
 * nothing. Bodies are JSON, 16 KiB at most, and checked before anything is read from them.
 */
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import { verifySignature } from '@vonage/jwt';
import { z } from 'zod';
import { describeError } from '../failures';
import { respondBySms } from '../twilio/responses';
import type { ProviderHookDeps } from '../types';
import { answerNcco, inputUrl, NO_KEY_PRESSED } from './ncco';
import { acknowledgeByCall, isCallToken, recordVonageReport } from './responses';

export interface VonageHookDeps extends ProviderHookDeps {
  /** VONAGE_SIGNATURE_SECRET; without it nothing can prove a callback is Vonage's, so all are refused. */
  signatureSecret: string | undefined;
  /** Texts a person what their SMS reply did; absent while Vonage is not configured. */
  reply?: (to: string, text: string) => Promise<void>;
}

/** Vonage's callbacks are a few hundred bytes. */
const MAX_BODY_BYTES = 16 * 1024;
/** Longer than any JWT Vonage signs a callback with: refused unread. */
const MAX_JWT_LENGTH = 4096;
/** Longer than any token Klaxon signs (about 150 characters). */
const MAX_TOKEN_LENGTH = 512;

const id = z.string().min(1).max(100);
const text = z.string().max(1000);

/** A message status (Messages API v1): the fields Klaxon reads. */
const messageStatus = z.object({
  message_uuid: id,
  status: z.string().max(40),
  error: z.object({ title: z.union([z.string().max(200), z.number()]).optional(), detail: text.optional() }).optional(),
});

/** An inbound message (Messages API v1): an SMS reply's sender (digits, no `+`) and text. */
const inboundMessage = z.object({
  message_uuid: id,
  channel: z.string().max(40),
  message_type: z.string().max(40).optional(),
  from: z.string().max(40),
  text: z.string().max(2000).optional(),
});
const E164_DIGITS = /^[1-9]\d{6,14}$/;

/** A call event: every event carries the call's uuid; those that are not a status (transfers, recordings) carry none. */
const callEvent = z.object({ uuid: id, status: z.string().max(40).optional() });

/** An input result: the key pressed (or nothing, timed out). */
const inputResult = z.object({
  uuid: id,
  dtmf: z.object({ digits: z.string().max(20).optional(), timed_out: z.boolean().optional() }).optional(),
});

/** True when `authorization` is Vonage's signature of `body`: a valid HS256 JWT whose payload_hash is the body's SHA-256. */
export function signedByVonage(secret: string | undefined, authorization: string, body: string): boolean {
  if (!secret) return false;
  const jwt = /^Bearer ([\w.-]+)$/.exec(authorization)?.[1];
  if (!jwt || jwt.length > MAX_JWT_LENGTH || !verifySignature(jwt, secret)) return false;
  const claims = decodeClaims(jwt);
  return typeof claims?.payload_hash === 'string' && claims.payload_hash === createHash('sha256').update(body).digest('hex');
}

/** A verified JWT's claims (its middle part); undefined when they are not a JSON object. */
function decodeClaims(jwt: string): Record<string, unknown> | undefined {
  try {
    const claims: unknown = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function createVonageHooksRouter(deps: VonageHookDeps): Router {
  const router = new Router({ prefix: '/hooks/vonage' });

  /** Reads the body (capped), checks Vonage's signature over it, then parses it with `schema` into `ctx.state.vonage`. */
  const signed =
    (schema: z.ZodType) =>
    async (ctx: Context, next: Next): Promise<void> => {
      ctx.state.routePattern = ctx.path;
      let body: string;
      try {
        body = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, encoding: 'utf8' });
      } catch (err) {
        const tooLarge = (err as { type?: unknown }).type === 'entity.too.large';
        ctx.status = tooLarge ? 413 : 400;
        ctx.body = { message: tooLarge ? `a Vonage callback is at most ${MAX_BODY_BYTES} bytes` : 'the body could not be read' };
        return;
      }
      if (!signedByVonage(deps.signatureSecret, ctx.get('authorization'), body)) {
        ctx.status = 401;
        ctx.body = { message: 'request is not signed by Vonage' };
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        ctx.status = 400;
        ctx.body = { message: 'not a Vonage callback Klaxon reads' };
        return;
      }
      ctx.state.vonage = parsed.data;
      await next();
    };

  router.post('/status', signed(messageStatus), async (ctx) => {
    const m = ctx.state.vonage as z.infer<typeof messageStatus>;
    const error = m.error && [m.error.title, m.error.detail].filter((v) => v !== undefined && v !== '').join(': ');
    await recordVonageReport(deps, { providerMessageId: m.message_uuid, status: m.status, error: error || undefined });
    ctx.status = 204;
  });

  router.post('/event', signed(callEvent), async (ctx) => {
    const e = ctx.state.vonage as z.infer<typeof callEvent>;
    if (e.status) await recordVonageReport(deps, { providerMessageId: e.uuid, status: e.status });
    ctx.status = 204;
  });

  router.post('/input', signed(inputResult), async (ctx) => {
    const input = ctx.state.vonage as z.infer<typeof inputResult>;
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    ctx.type = 'application/json';
    if (token.length > MAX_TOKEN_LENGTH || !isCallToken(deps.linkSecret, token)) {
      ctx.body = answerNcco('This call is not a page we know, or it has expired. Goodbye.');
      return;
    }
    const digits = input.dtmf?.digits ?? '';
    if (digits === '') {
      ctx.body = answerNcco(NO_KEY_PRESSED);
      return;
    }
    if (digits !== '1') {
      ctx.body = answerNcco('That key does nothing.', { url: inputUrl(deps.appUrl, token) });
      return;
    }
    const answer = await acknowledgeByCall(deps, token);
    ctx.body = answerNcco(`${answer.message} Goodbye.`);
  });

  router.post('/inbound', signed(inboundMessage), async (ctx) => {
    const m = ctx.state.vonage as z.infer<typeof inboundMessage>;
    ctx.status = 204;
    // Only SMS replies answer pages; anything else the application receives is not Klaxon's.
    if (m.channel !== 'sms' || !E164_DIGITS.test(m.from)) return;
    const from = `+${m.from}`;
    const answer = await respondBySms(deps, { messageSid: m.message_uuid, from, body: m.text ?? '' }, 'vonage');
    // The reply is texted after Vonage has its answer: a slow send must not make it retry the callback.
    const reply = deps.reply;
    if (reply)
      setImmediate(() => {
        reply(from, answer.message).catch((err: unknown) =>
          deps.logger?.warn({ error: describeError(err) }, 'vonage: the answer to an SMS reply was not sent'),
        );
      });
  });

  return router;
}
