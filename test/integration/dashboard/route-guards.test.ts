import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { dashboardFixture, signUpAndLogIn } from '../../support/dashboard';
import { request } from '../../support/http';

/**
 * Every /api route, read from /api/openapi.json (so a route added later is covered without
 * touching this file): the session and CSRF rules of docs/architecture.md, "Workspaces, roles and credentials", and nothing written when
 * they refuse.
 */
const fx = dashboardFixture();

interface Operation {
  method: string;
  path: string;
  needsSession: boolean;
}

async function operations(): Promise<Operation[]> {
  const doc = (await request('GET', `${fx.stack.urls.app}/api/openapi.json`)).body;
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, { security?: unknown[] }>>(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      ops.push({ method: method.toUpperCase(), path: path.replace(/\{\w+\}/g, () => randomUUID()), needsSession: (op.security ?? []).length > 0 });
    }
  }
  return ops;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Row counts of every table: a refused request leaves them all as they were. Not request_metrics:
 * every request is counted there, refused or not, by a flush every few seconds (status/request-metrics.ts).
 */
async function rowCounts(): Promise<Record<string, number>> {
  const db = knexOf(fx.stack.orm);
  const tables = (
    await db.raw(`select tablename from pg_tables where schemaname = current_schema() and tablename not like 'mikro_orm%' and tablename <> 'request_metrics'`)
  ).rows as Array<{
    tablename: string;
  }>;
  const counts: Record<string, number> = {};
  for (const { tablename } of tables) counts[tablename] = Number((await db(tablename).count({ n: '*' }))[0].n);
  return counts;
}

describe('/api route guards, for every route in /api/openapi.json', () => {
  it('when the document is read, then it lists the account routes and the administration nouns of docs/architecture.md, "Workspaces, roles and credentials", each with an operationId', async () => {
    const doc = (await request('GET', `${fx.stack.urls.app}/api/openapi.json`)).body;
    expect(doc.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.paths);
    for (const p of ['/api/auth/signup', '/api/auth/verify', '/api/auth/login', '/api/auth/session', '/api/auth/logout', '/api/audit-log'])
      expect(paths).toContain(p);
    const ids = Object.values<Record<string, { operationId: string }>>(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('when a session route is called without the session cookie, then it is 401 in the dashboard envelope, and nothing is written', async () => {
    const ops = (await operations()).filter((op) => op.needsSession);
    expect(ops.length).toBeGreaterThan(3);
    const before = await rowCounts();
    for (const op of ops) {
      const res = await request(op.method, `${fx.stack.urls.app}${op.path}`, { body: STATE_CHANGING.has(op.method) ? {} : undefined });
      expect({ route: `${op.method} ${op.path}`, status: res.status, code: res.body.code, success: res.body.success }).toEqual({
        route: `${op.method} ${op.path}`,
        status: 401,
        code: 'unauthorized',
        success: false,
      });
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('when a state-changing session route has no X-CSRF-Token, a wrong one, or a cross-site Origin, then it is 403 csrf_failed, and nothing is written', async () => {
    const me = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const ops = (await operations()).filter((op) => op.needsSession && STATE_CHANGING.has(op.method));
    const before = await rowCounts();
    const cookie = `__Host-klaxon_session=${me.cookie}`;
    for (const op of ops) {
      const url = `${fx.stack.urls.app}${op.path}`;
      for (const headers of [
        { Cookie: cookie } as Record<string, string>,
        { Cookie: cookie, 'X-CSRF-Token': 'not-the-token' },
        { Cookie: cookie, 'X-CSRF-Token': me.csrf, Origin: 'https://evil.example' },
      ]) {
        const res = await request(op.method, url, { body: {}, headers });
        expect({ route: `${op.method} ${op.path}`, status: res.status, code: res.body.code }).toEqual({
          route: `${op.method} ${op.path}`,
          status: 403,
          code: 'csrf_failed',
        });
      }
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('when a route gets a bearer token instead of the cookie, then it is 401: bearer credentials never work on /api', async () => {
    const ops = (await operations()).filter((op) => op.needsSession);
    for (const op of ops) {
      const res = await request(op.method, `${fx.stack.urls.app}${op.path}`, {
        body: STATE_CHANGING.has(op.method) ? {} : undefined,
        token: 'kx_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      });
      expect({ route: `${op.method} ${op.path}`, status: res.status }).toEqual({ route: `${op.method} ${op.path}`, status: 401 });
    }
  });

  it('when a public state-changing route comes from another origin, then it is 403 csrf_failed', async () => {
    const ops = (await operations()).filter((op) => !op.needsSession && STATE_CHANGING.has(op.method));
    expect(ops.map((op) => op.path)).toContain('/api/auth/login');
    for (const op of ops) {
      const res = await request(op.method, `${fx.stack.urls.app}${op.path}`, { body: {}, headers: { Origin: 'https://evil.example' } });
      expect({ route: `${op.method} ${op.path}`, status: res.status, code: res.body.code }).toEqual({
        route: `${op.method} ${op.path}`,
        status: 403,
        code: 'csrf_failed',
      });
    }
  });
});
