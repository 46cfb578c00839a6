import Router from '@koa/router';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Middleware, ParameterizedContext } from 'koa';
import { z } from 'zod';
import { ScimError } from '../../src/services/scim/errors';
import { createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup } from '../../src/services/scim/groups';
import {
  DEFAULT_PAGE_SIZE,
  groupResource,
  listResponse,
  MAX_PAGE_SIZE,
  resourceTypes,
  schemas,
  serviceProviderConfig,
  userResource,
} from '../../src/services/scim/resources';
import { firstIssue, GroupBody, PatchBody, UserBody } from '../../src/services/scim/schemas';
import { createScimUser, deleteScimUser, patchScimUser, replaceScimUser } from '../../src/services/scim/users';
import { getScimUser, listScimUsers } from '../../src/services/scim/user-records';
import { MAX_FILTER_LENGTH } from '../../src/services/scim/filter';
import type { Page } from '../../src/services/scim/actor';
import { scimBearer, scimWorkspaceOf } from './auth';
import { scimBody } from './body';
import { scimErrors } from './errors';

/** Where the SCIM surface lives on the app listener (docs/scim.md). */
export const SCIM_PREFIX = '/scim/v2';

export interface ScimDeps {
  orm: MikroORM;
  appUrl: string;
}

const ListQuery = z.looseObject({
  filter: z.string().max(MAX_FILTER_LENGTH).optional(),
  startIndex: z.coerce.number().int().optional(),
  count: z.coerce.number().int().optional(),
});

/** `startIndex` below 1 is 1 and `count` is clamped to 0‥200 (RFC 7644 §3.4.2.4). */
function pageOf(query: unknown): Page {
  const parsed = ListQuery.safeParse(query);
  if (!parsed.success) throw new ScimError(400, firstIssue(parsed.error), 'invalidValue');
  const { filter, startIndex, count } = parsed.data;
  return {
    filter: filter?.trim() ? filter : undefined,
    startIndex: Math.max(1, startIndex ?? 1),
    count: Math.min(MAX_PAGE_SIZE, Math.max(0, count ?? DEFAULT_PAGE_SIZE)),
  };
}

function bodyOf<T>(schema: z.ZodType<T>, ctx: ParameterizedContext): T {
  const parsed = schema.safeParse(ctx.request.body);
  if (!parsed.success) throw new ScimError(400, firstIssue(parsed.error), 'invalidValue');
  return parsed.data;
}

/** Answers a resource: 201 with Location for a creation, else 200. */
function answer(ctx: ParameterizedContext, resource: { meta: { location: string } }, created = false): void {
  ctx.status = created ? 201 : 200;
  if (created) ctx.set('Location', resource.meta.location);
  ctx.body = resource;
}

function routes(deps: ScimDeps, base: string): Router {
  const router = new Router({ prefix: SCIM_PREFIX });
  const { orm } = deps;
  const org = (ctx: ParameterizedContext) => scimWorkspaceOf(ctx.state);
  const named =
    (pattern: string): Middleware =>
    (ctx, next) => {
      ctx.state.routePattern = `${SCIM_PREFIX}${pattern}`;
      return next();
    };

  router.get('/ServiceProviderConfig', named('/ServiceProviderConfig'), (ctx) => {
    ctx.body = serviceProviderConfig(base);
  });
  router.get('/ResourceTypes', named('/ResourceTypes'), (ctx) => {
    const all = resourceTypes(base);
    ctx.body = listResponse(all, all.length, 1);
  });
  router.get('/ResourceTypes/:id', named('/ResourceTypes/{id}'), (ctx) => {
    const found = resourceTypes(base).find((r) => r.id === ctx.params.id);
    if (!found) throw new ScimError(404, `ResourceType ${ctx.params.id} not found`);
    ctx.body = found;
  });
  router.get('/Schemas', named('/Schemas'), (ctx) => {
    const all = schemas(base);
    ctx.body = listResponse(all, all.length, 1);
  });
  router.get('/Schemas/:id', named('/Schemas/{id}'), (ctx) => {
    const found = schemas(base).find((s) => s.id === ctx.params.id);
    if (!found) throw new ScimError(404, `Schema ${ctx.params.id} not found`);
    ctx.body = found;
  });

  router.get('/Users', named('/Users'), async (ctx) => {
    const page = pageOf(ctx.query);
    const { users, total } = await listScimUsers(orm, org(ctx), page);
    ctx.body = listResponse(
      users.map((u) => userResource(base, u)),
      total,
      page.startIndex,
    );
  });
  router.post('/Users', named('/Users'), async (ctx) => {
    answer(ctx, userResource(base, await createScimUser(orm, org(ctx), bodyOf(UserBody, ctx))), true);
  });
  router.get('/Users/:id', named('/Users/{id}'), async (ctx) => {
    answer(ctx, userResource(base, await getScimUser(orm, org(ctx), ctx.params.id)));
  });
  router.put('/Users/:id', named('/Users/{id}'), async (ctx) => {
    answer(ctx, userResource(base, await replaceScimUser(orm, org(ctx), ctx.params.id, bodyOf(UserBody, ctx))));
  });
  router.patch('/Users/:id', named('/Users/{id}'), async (ctx) => {
    answer(ctx, userResource(base, await patchScimUser(orm, org(ctx), ctx.params.id, bodyOf(PatchBody, ctx).Operations)));
  });
  router.delete('/Users/:id', named('/Users/{id}'), async (ctx) => {
    await deleteScimUser(orm, org(ctx), ctx.params.id);
    ctx.status = 204;
  });

  router.get('/Groups', named('/Groups'), async (ctx) => {
    const page = pageOf(ctx.query);
    const { groups, total } = await listScimGroups(orm, org(ctx), page);
    ctx.body = listResponse(
      groups.map((g) => groupResource(base, g)),
      total,
      page.startIndex,
    );
  });
  router.post('/Groups', named('/Groups'), async (ctx) => {
    answer(ctx, groupResource(base, await createScimGroup(orm, org(ctx), bodyOf(GroupBody, ctx))), true);
  });
  router.get('/Groups/:id', named('/Groups/{id}'), async (ctx) => {
    answer(ctx, groupResource(base, await getScimGroup(orm, org(ctx), ctx.params.id)));
  });
  router.put('/Groups/:id', named('/Groups/{id}'), async (ctx) => {
    answer(ctx, groupResource(base, await replaceScimGroup(orm, org(ctx), ctx.params.id, bodyOf(GroupBody, ctx))));
  });
  router.patch('/Groups/:id', named('/Groups/{id}'), async (ctx) => {
    answer(ctx, groupResource(base, await patchScimGroup(orm, org(ctx), ctx.params.id, bodyOf(PatchBody, ctx).Operations)));
  });
  router.delete('/Groups/:id', named('/Groups/{id}'), async (ctx) => {
    await deleteScimGroup(orm, org(ctx), ctx.params.id);
    ctx.status = 204;
  });
  return router;
}

/**
 * The SCIM 2.0 surface (RFC 7644) at `{APP_URL}/scim/v2`: errors as SCIM Errors, the bearer
 * token and plan checked before anything is read, bodies up to 1 MiB. Paths outside it pass by.
 */
export function scimSurface(deps: ScimDeps): Middleware {
  // APP_URL comes without a trailing slash (src/config.ts).
  const base = `${deps.appUrl}${SCIM_PREFIX}`;
  const router = routes(deps, base);
  const unknown: Middleware = (ctx) => {
    throw new ScimError(404, `no SCIM endpoint ${ctx.method} ${ctx.path}`);
  };
  const surface = [scimErrors(), scimBearer(deps.orm), scimBody(), router.routes() as Middleware, unknown];
  const run = (ctx: ParameterizedContext, i: number): Promise<unknown> => Promise.resolve(surface[i](ctx as never, () => run(ctx, i + 1)));
  return (ctx, next) => {
    if (ctx.path !== SCIM_PREFIX && !ctx.path.startsWith(`${SCIM_PREFIX}/`)) return next();
    // The request log's name for answers given before a route matched (401, 403, 404); routes name themselves.
    ctx.state.routePattern = `${SCIM_PREFIX}/*`;
    return run(ctx, 0);
  };
}
