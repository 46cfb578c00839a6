import { OpenAPIRegistry, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type Router from '@koa/router';
import type { Middleware, ParameterizedContext } from 'koa';
import { z } from 'zod';
import { HttpError } from './customer-errors';

/**
 * One route, described once: the router validates with these zod schemas and the OpenAPI
 * document is generated from the same objects, so the two cannot drift apart.
 */
export interface RouteSpec<P extends z.ZodObject = z.ZodObject, Q extends z.ZodObject = z.ZodObject, B extends z.ZodType = z.ZodType> {
  method: 'get' | 'post' | 'put' | 'delete';
  /** `write` routes need a READ_WRITE credential. */
  access: 'read' | 'write';
  /** OpenAPI-style path, `{param}` placeholders. */
  path: string;
  summary: string;
  operationId: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Success status and the schema of `data`. */
  success: { status: 200 | 201 | 202 | 204 | 302; description: string; schema: z.ZodType; downloads?: string[] };
  /** Error statuses this route can answer, with why. */
  errors: Partial<Record<400 | 401 | 403 | 404 | 405 | 409 | 415 | 423 | 429 | 502 | 503, string>>;
  handler: (ctx: ParameterizedContext, input: { params: z.infer<P>; query: z.infer<Q>; body: z.infer<B> }) => Promise<RouteResult>;
}

/** What a handler answers: the payload, paging metadata, and (the API-key envelope) a message. */
export interface RouteResult {
  data: unknown;
  meta?: unknown;
  message?: string;
  /** A body the spec fixes exactly (e.g. `{success, webhooks, total}`): sent as is, no envelope. */
  exactBody?: unknown;
  /** A download (CSV, PDF): sent as is with its Content-Type and an attachment Content-Disposition. */
  file?: { body: Buffer | string; contentType: string; filename: string };
  /** The handler answered itself (a Server-Sent Events stream): leave the response alone. */
  streamed?: true;
  /** A 302 to this address (the Slack install): no body. */
  redirect?: string;
  /** Another success status than the route's (an idempotent create that found the thing: 200, not 201). */
  status?: 200 | 201 | 202;
}

/** The customer API's success body: `{data, meta?}` (docs/architecture.md, "Error envelopes"). */
const customerBody = (result: RouteResult) => (result.meta === undefined ? { data: result.data } : { data: result.data, meta: result.meta });

export const defineRoute = <P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodType>(spec: RouteSpec<P, Q, B>): RouteSpec =>
  spec as unknown as RouteSpec;

const koaPath = (openApiPath: string) => openApiPath.replace(/\{(\w+)\}/g, ':$1');

/** Mounts routes on a koa router: parse with zod (400 on failure), run, wrap in `{data}`. */
export function mountRoutes(
  router: Router,
  routes: readonly RouteSpec[],
  opts: {
    prefix?: string;
    before?: Middleware[];
    authorize?: (ctx: ParameterizedContext, access: RouteSpec['access']) => void;
    /** The surface's success envelope; the customer API's `{data, meta?}` by default. */
    body?: (result: RouteResult) => unknown;
    /** A request that sends no body at all is parsed as `{}` (the dashboard's bodiless actions). */
    emptyBodyIsObject?: boolean;
  } = {},
): void {
  for (const route of routes) {
    const pattern: Middleware = (ctx, next) => {
      ctx.state.routePattern = (opts.prefix ?? '') + route.path; // logged instead of the raw URL
      return next();
    };
    router[route.method](koaPath(route.path), pattern, ...(opts.before ?? []), async (ctx) => {
      opts.authorize?.(ctx, route.access);
      const bodiless = !ctx.request.length && !ctx.get('Content-Type') && !ctx.get('Transfer-Encoding');
      if (route.body && !ctx.is('application/json') && !(opts.emptyBodyIsObject && bodiless)) {
        throw new HttpError(415, 'request body must be JSON (Content-Type: application/json)');
      }
      const params = route.params ? route.params.parse(ctx.params) : {};
      const query = route.query ? route.query.parse(ctx.query) : {};
      const body = route.body ? route.body.parse(bodiless && opts.emptyBodyIsObject ? {} : (ctx.request as { body?: unknown }).body) : undefined;
      const result = await route.handler(ctx, { params, query, body } as never);
      if (result.streamed) return;
      if (result.redirect !== undefined) {
        ctx.redirect(result.redirect);
        return;
      }
      ctx.status = result.status ?? route.success.status;
      if (route.success.status === 204) {
        ctx.body = null;
      } else if (result.file) {
        ctx.type = result.file.contentType;
        ctx.set('Content-Disposition', `attachment; filename="${result.file.filename.replace(/[^\w.-]/g, '_')}"`);
        ctx.body = result.file.body;
      } else {
        ctx.body = result.exactBody !== undefined ? result.exactBody : (opts.body ?? customerBody)(result);
      }
    });
  }
}

/** Adds routes to an OpenAPI registry under a path prefix. */
export function registerRoutes(
  registry: OpenAPIRegistry,
  prefix: string,
  routes: readonly RouteSpec[],
  shared: { errorSchema: z.ZodType; security: RouteConfig['security'] },
): void {
  for (const route of routes) {
    const bodiless = route.success.status === 204 || route.success.status === 302;
    const responses: RouteConfig['responses'] = {
      [route.success.status]: bodiless
        ? { description: route.success.description }
        : {
            description: route.success.description,
            content: {
              'application/json': { schema: route.success.schema },
              // Other representations the route answers as a file (CSV, PDF), by the request's `format`.
              ...Object.fromEntries((route.success.downloads ?? []).map((type) => [type, { schema: z.string() }])),
            },
          },
    };
    for (const [status, description] of Object.entries(route.errors)) {
      responses[status] = { description, content: { 'application/json': { schema: shared.errorSchema } } };
    }
    registry.registerPath({
      method: route.method,
      path: prefix + route.path,
      summary: route.summary,
      operationId: route.operationId,
      security: shared.security,
      request: {
        params: route.params,
        query: route.query,
        body: route.body ? { required: true, content: { 'application/json': { schema: route.body } } } : undefined,
      },
      responses,
    });
  }
}
