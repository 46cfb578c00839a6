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
