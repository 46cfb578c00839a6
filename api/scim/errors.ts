import type { Middleware } from 'koa';
import { ScimError } from '../../src/services/scim/errors';
import { errorBody } from '../../src/services/scim/resources';
import { toErrorBody } from '../http/customer-errors';

/** Content type of every SCIM answer (RFC 7644 §3.1). */
export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/** What a domain error's code means to a SCIM client, where RFC 7644 has a word for it. */
const SCIM_TYPE_BY_STATUS: Partial<Record<number, string>> = { 400: 'invalidValue' };

/**
 * Every failure on the SCIM surface as a SCIM Error (RFC 7644 §3.12). Other failures are
 * described as the customer API would (a generic 500, a 503 while the database is away), so no
 * internals or secrets reach the client.
 */
export function scimErrors(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof ScimError) {
        ctx.status = err.status;
        ctx.body = errorBody(err.status, err.message, err.scimType);
      } else {
        const answer = toErrorBody(err);
        for (const [k, v] of Object.entries(answer.headers)) ctx.set(k, v);
        const detail = answer.body.code ? `${answer.body.code}: ${answer.body.message}` : answer.body.message;
        ctx.status = answer.status;
        ctx.body = errorBody(answer.status, detail, SCIM_TYPE_BY_STATUS[answer.status]);
        if (answer.status >= 500) ctx.state.error = err;
      }
      if (ctx.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="klaxon-scim"');
    }
    if (ctx.body !== undefined && ctx.body !== null) ctx.type = SCIM_CONTENT_TYPE;
  };
}
