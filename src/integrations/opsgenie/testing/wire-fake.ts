import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inDomain, JsonApiFake, ownDomain, shiftWeeks, weeksAhead, type FakeAnswer, type FakeRequest } from '../../testing/json-api';

/**
 * Opsgenie's REST API at the wire, for the importer's tests: the documented paths, answers
 * shaped as its documentation shows them (`{data, took, requestId}`, src/integrations/opsgenie/testing/fixtures),
 * `offset`/`limit` pages with `paging.next` on the lists that page, a small page so they take
 * several requests, and `Authorization: GenieKey …` checked on every request.
 */

const FIXTURES = path.resolve(__dirname, 'fixtures');
type Obj = Record<string, any>;

export interface OpsgenieAccount {
  /** Its people's mail domain (a fixture copy has one of its own: ownDomain). */
  domain?: string;
  users: Obj[];
  /** User id → their contacts (GET /v2/users/{id}/contacts). */
  contacts: Record<string, Obj[]>;
  /** User id → their notification rules in full, each with its `steps` (with ids, as the steps list answers them). */
  notificationRules: Record<string, Obj[]>;
  /** Teams with their members, as GET /v2/teams/{id} answers them. */
  teams: Obj[];
  /** Schedules with their rotations (`expand=rotation`). */
  schedules: Obj[];
  /** Schedule id → its overrides. */
  overrides: Record<string, Obj[]>;
  escalations: Obj[];
  services: Obj[];
  /** Integrations in full, as GET /v2/integrations/{id} answers them (API ones with their apiKey). */
  integrations: Obj[];
}

/** The fixture account, its people in a mail domain of their own; its overrides move by whole weeks to start a week after `now`. */
export function fixtureAccount(now = new Date(), domain = ownDomain()): OpsgenieAccount {
  const load = (name: string) => JSON.parse(inDomain(readFileSync(path.join(FIXTURES, name), 'utf8'), domain));
  const overrides: Record<string, Obj[]> = Object.fromEntries(
    Object.entries(load('overrides.json') as Record<string, { data: Obj[] }>).map(([id, v]) => [id, v.data]),
  );
  const all = Object.values(overrides).flat();
  const weeks = all.length ? weeksAhead(all.map((o) => o.startDate as string).sort()[0], now) : 0;
  for (const list of Object.values(overrides))
    for (const o of list) Object.assign(o, { startDate: shiftWeeks(o.startDate, weeks), endDate: shiftWeeks(o.endDate, weeks) });
  const byUser = (name: string) => Object.fromEntries(Object.entries(load(name) as Record<string, { data: Obj[] }>).map(([id, v]) => [id, v.data]));
  return {
    domain,
    users: load('users.json').data,
    contacts: byUser('contacts.json'),
    notificationRules: byUser('notification-rules.json'),
    teams: load('teams.json').data,
    schedules: load('schedules.json').data,
    overrides,
    escalations: load('escalations.json').data,
    services: load('services.json').data,
    integrations: load('integrations.json').data,
  };
}

const envelope = (data: unknown, extra: Obj = {}) => ({ ...extra, data, took: 0.01, requestId: randomUUID() });
const NOT_FOUND: FakeAnswer = { status: 404, body: { message: 'Not found', took: 0.0, requestId: '00000000-0000-0000-0000-000000000000' } };

/** An offset/limit page with `paging.next` while more follow. */
function paged(items: unknown[], req: FakeRequest, base: string, pageSize: number): FakeAnswer {
  const limit = Math.min(Number(req.query.get('limit') ?? 20) || 20, pageSize);
  const offset = Number(req.query.get('offset') ?? 0) || 0;
  const at = (o: number) => `${base}${req.path}?limit=${limit}&offset=${o}`;
  const lastOffset = Math.max(0, Math.floor((items.length - 1) / limit) * limit);
  const paging = { ...(offset + limit < items.length ? { next: at(offset + limit) } : {}), first: at(0), last: at(lastOffset) };
  return { status: 200, body: envelope(items.slice(offset, offset + limit), { totalCount: items.length, paging }) };
}

/** A rule as listed (GET /v2/users/{id}/notification-rules): no steps, criteria or restrictions. */
const ruleSummary = (r: Obj) => ({ id: r.id, name: r.name, actionType: r.actionType, order: r.order, enabled: r.enabled });
/** A rule in full (GET …/notification-rules/{ruleId}): its steps without their ids, as Opsgenie's answer shows them. */
const ruleDetail = (r: Obj) => ({ ...r, steps: (r.steps as Obj[]).map(({ _parent: _p, id: _id, ...step }) => step) });

/** The user's routes (`/v2/users/{id or username}/…`): contacts, notification rules, a rule, its steps. */
function userRoute(account: OpsgenieAccount, parts: string[]): FakeAnswer | undefined {
  const user = account.users.find((u) => u.id === parts[2] || u.username === parts[2]);
  if (!user) return NOT_FOUND;
  const rules = account.notificationRules[user.id] ?? [];
  if (parts[3] === 'contacts' && parts.length === 4) return { status: 200, body: envelope(account.contacts[user.id] ?? []) };
  if (parts[3] !== 'notification-rules') return undefined;
  if (parts.length === 4) return { status: 200, body: envelope(rules.map(ruleSummary)) };
  const rule = rules.find((r) => r.id === parts[4]);
  if (!rule) return NOT_FOUND;
  if (parts.length === 5) return { status: 200, body: envelope(ruleDetail(rule)) };
  if (parts[5] === 'steps' && parts.length === 6) return { status: 200, body: envelope(rule.steps) };
  return undefined;
}

function route(account: OpsgenieAccount, pageSize: number) {
  return (req: FakeRequest, base: string): FakeAnswer | undefined => {
    const parts = req.path.split('/').filter(Boolean);
    if (req.path === '/v2/users') return paged(account.users, req, base, pageSize);
    if (parts[0] === 'v2' && parts[1] === 'users' && parts.length >= 4) return userRoute(account, parts);
    if (req.path === '/v2/teams') return { status: 200, body: envelope(account.teams.map(({ members: _m, ...t }) => t)) };
    if (parts[0] === 'v2' && parts[1] === 'teams' && parts.length === 3) {
      const team = account.teams.find((t) => t.id === parts[2]);
      return team ? { status: 200, body: envelope(team) } : NOT_FOUND;
    }
    if (req.path === '/v2/schedules') {
      const expand = (req.query.get('expand') ?? '').split(',').includes('rotation');
      return { status: 200, body: envelope(expand ? account.schedules : account.schedules.map(({ rotations: _r, ...s }) => s), { expandable: ['rotation'] }) };
    }
    if (parts[0] === 'v2' && parts[1] === 'schedules' && parts[3] === 'overrides' && parts.length === 4) {
      return account.schedules.some((s) => s.id === parts[2]) ? { status: 200, body: envelope(account.overrides[parts[2]] ?? []) } : NOT_FOUND;
    }
    if (req.path === '/v2/escalations') return { status: 200, body: envelope(account.escalations) };
    if (req.path === '/v1/services') return paged(account.services, req, base, pageSize);
    if (req.path === '/v2/integrations') {
      return {
        status: 200,
        body: envelope(account.integrations.map((i) => ({ id: i.id, name: i.name, enabled: i.enabled, type: i.type, teamId: i.teamId, version: i.version }))),
      };
    }
    if (parts[0] === 'v2' && parts[1] === 'integrations' && parts.length === 3) {
      const integration = account.integrations.find((i) => i.id === parts[2]);
      return integration ? { status: 200, body: envelope(integration) } : NOT_FOUND;
    }
    return undefined;
  };
}

export type OpsgenieApiFake = JsonApiFake & { account: OpsgenieAccount; apiKey: string };

/** Starts the fake on 127.0.0.1; `pageSize` 2 unless told. */
export async function startOpsgenieApi(opts: { apiKey?: string; account?: OpsgenieAccount; pageSize?: number } = {}): Promise<OpsgenieApiFake> {
  const apiKey = opts.apiKey ?? randomUUID();
  const account = opts.account ?? fixtureAccount();
  const fake = new JsonApiFake(
    (h) => h.authorization === `GenieKey ${apiKey}`,
    { status: 401, body: { message: 'Key format is not valid!', took: 0.001, requestId: randomUUID() } },
    route(account, opts.pageSize ?? 2),
    NOT_FOUND,
  );
  await fake.start();
  return Object.assign(fake, { account, apiKey });
}
