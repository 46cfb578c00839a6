import { koaBody } from 'koa-body';
import type { Middleware } from 'koa';
import { parseJsonText } from '../../src/domain/ingest/json-text';
import { BODY_LIMIT, BODY_TOO_LARGE } from '../../src/domain/ingest/limits';
import { HttpError } from '../http/customer-errors';

/**
 * An alert event's body: JSON, or JSON sent as text/plain (AWS SNS does this), at most 512 KiB.
 * Read as text so its nesting is checked before JSON.parse runs (src/domain/ingest/json-text.ts);
 * errors are ours, not the parser's: 413 too large, 400 not JSON or nested too deep.
 */
export function ingestBody(): Middleware {
  const text = koaBody({
    json: false,
    urlencoded: false,
    multipart: false,
    text: true,
    textTypes: ['application/json', 'text/plain'],
    textLimit: BODY_LIMIT,
    onError: (err) => {
      if ((err as { status?: number }).status === 413) throw new HttpError(413, BODY_TOO_LARGE);
      throw new HttpError(400, 'request body could not be read');
    },
  });
  return (ctx, next) =>
    text(ctx, async () => {
      const raw = String((ctx.request as { body?: unknown }).body ?? '');
      // An empty body reads as {} (what the JSON parser used here before did): Form A then names what is missing.
      const parsed = raw === '' ? { ok: true as const, value: {} } : parseJsonText(raw, { objectOrArray: true });
      if (!parsed.ok) throw new HttpError(400, parsed.message);
      (ctx.request as { body?: unknown }).body = parsed.value;
      await next();
    });
}
