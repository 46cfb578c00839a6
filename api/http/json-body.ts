import { koaBody } from 'koa-body';
import type { Middleware } from 'koa';
import { HttpError } from './customer-errors';

/** JSON bodies only, up to 512 KiB, with clear errors instead of the parser's own. */
export function jsonBody(limit = '512kb'): Middleware {
  return koaBody({
    json: true,
    urlencoded: false,
    multipart: false,
    text: false,
    jsonLimit: limit,
    jsonStrict: true,
    onError: (err) => {
      const status = (err as { status?: number }).status;
      if (status === 413) throw new HttpError(413, `request body is larger than ${limit.replace('kb', ' KiB')}`);
      if (status === 415) throw new HttpError(415, 'request body must be JSON (Content-Type: application/json)');
      throw new HttpError(400, 'request body is not valid JSON');
    },
  });
}

/** JSON sent as text/plain (AWS SNS does this): read as text, parsed as JSON, same limit. */
export function textJsonBody(limit = '512kb'): Middleware {
  const text = koaBody({ json: false, urlencoded: false, multipart: false, text: true, textLimit: limit, onError: (err) => {
    if ((err as { status?: number }).status === 413) throw new HttpError(413, `request body is larger than ${limit.replace('kb', ' KiB')}`);
    throw new HttpError(400, 'request body could not be read');
  } });
  return async (ctx, next) => {
    if (!ctx.is('text/plain')) return next();
    await text(ctx, async () => {
      try {
        ctx.request.body = JSON.parse(String((ctx.request as { body?: unknown }).body ?? ''));
      } catch {
        throw new HttpError(400, 'request body is not valid JSON');
      }
      await next();
    });
  };
}
