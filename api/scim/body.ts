import { koaBody } from 'koa-body';
import type { Middleware } from 'koa';
import { ScimError } from '../../src/services/scim/errors';

/** Largest SCIM request body accepted (docs/scim.md). */
export const SCIM_BODY_LIMIT = '1mb';

const JSON_TYPES = ['application/scim+json', 'application/json'];

/** JSON bodies (`application/scim+json` or `application/json`) up to 1 MiB on POST, PUT and PATCH, with SCIM errors. */
export function scimBody(): Middleware {
  const parse = koaBody({
    json: true,
    urlencoded: false,
    multipart: false,
    text: false,
    jsonLimit: SCIM_BODY_LIMIT,
    jsonStrict: true,
    jsonTypes: JSON_TYPES,
    onError: (err) => {
      if ((err as { status?: number }).status === 413) throw new ScimError(413, 'request body is larger than 1 MiB');
      throw new ScimError(400, 'request body is not valid JSON', 'invalidSyntax');
    },
  });
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH'].includes(ctx.method)) return next();
    if (!ctx.is(JSON_TYPES)) throw new ScimError(415, 'request body must be JSON (Content-Type: application/scim+json)');
    return parse(ctx, next);
  };
}
