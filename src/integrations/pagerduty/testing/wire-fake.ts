import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inDomain, JsonApiFake, ownDomain, shiftWeeks, weeksAhead, type FakeAnswer, type FakeRequest } from '../../testing/json-api';

/**
 * PagerDuty's REST API v2 at the wire, for the importer's tests: the documented paths, answers
 * shaped as its reference shows them (src/integrations/pagerduty/testing/fixtures), classic pagination (`limit`,
 * `offset`, `more`) with a small page so every list takes several requests, and the
 * `Authorization: Token token=…` header checked on every request.
 */

const FIXTURES = path.resolve(__dirname, 'fixtures');
type Obj = Record<string, any>;

/** One PagerDuty account, as the fake serves it. */
export interface PagerDutyAccount {
  /** Its people's mail domain (a fixture copy has one of its own: ownDomain). */
  domain?: string;
  users: Obj[];
  teams: Obj[];
  /** Team id → its members (`{user, role}`). */
  members: Record<string, Obj[]>;
  /** Full schedules, as GET /schedules/{id} answers them. */
  schedules: Obj[];
  /** Schedule id → its overrides. */
  overrides: Record<string, Obj[]>;
  escalationPolicies: Obj[];
  /** Services with their integrations in full (as `include[]=integrations` answers). */
  services: Obj[];
}

/**
 * The fixture account, its people in a mail domain of their own (`alice@<domain>`). Its overrides
 * are written years ahead; they are moved by whole weeks to start a week after `now`, so they are
 * always in the future the importer reads.
 */
export function fixtureAccount(now = new Date(), domain = ownDomain()): PagerDutyAccount {
  const load = (name: string) => JSON.parse(inDomain(readFileSync(path.join(FIXTURES, name), 'utf8'), domain));
  const overrides: Record<string, Obj[]> = Object.fromEntries(
    Object.entries(load('overrides.json') as Record<string, { overrides: Obj[] }>).map(([id, v]) => [id, v.overrides]),
  );
  const all = Object.values(overrides).flat();
  const weeks = all.length ? weeksAhead(all.map((o) => o.start as string).sort()[0], now) : 0;
  for (const list of Object.values(overrides)) for (const o of list) Object.assign(o, { start: shiftWeeks(o.start, weeks), end: shiftWeeks(o.end, weeks) });
  return {
    domain,
    users: load('users.json').users,
    teams: load('teams.json').teams,
    members: Object.fromEntries(Object.entries(load('team-members.json') as Record<string, { members: Obj[] }>).map(([id, v]) => [id, v.members])),
    schedules: load('schedules.json').schedules,
    overrides,
    escalationPolicies: load('escalation_policies.json').escalation_policies,
    services: load('services.json').services,
  };
}

const ref = (type: string, id: string, summary: string) => ({ id, type: `${type}_reference`, summary });

/**
 * A large account for the bench: users (each with an email, an SMS and a phone contact method and
 * four notification rules, one of them low-urgency), two-layer daily schedules, two-rule policies,
 * services with an Events API v2 key each.
 */
export function generatedAccount(sizes: { users: number; schedules: number; policies: number; services: number }): PagerDutyAccount {
  const id = (prefix: string, i: number) => `P${prefix}${String(i).padStart(5, '0')}`;
  const users = Array.from({ length: sizes.users }, (_, i) => {
    const uid = id('U', i);
    const number = String(2025550000 + i);
    const method = (suffix: string, type: string, address: string, more: Obj = {}) => ({
      id: `${uid}C${suffix}`,
      type,
      summary: 'Mobile',
      self: `https://api.pagerduty.com/users/${uid}/contact_methods/${uid}C${suffix}`,
      html_url: null,
      label: 'Mobile',
      address,
      ...more,
    });
    const methods = [
      method('E', 'email_contact_method', `person${i}@bench.example`),
      method('S', 'sms_contact_method', number, { country_code: 1, blacklisted: false, enabled: true }),
      method('V', 'phone_contact_method', number, { country_code: 1, blacklisted: false }),
    ];
    const rule = (suffix: string, minutes: number, via: Obj, urgency = 'high') => ({
      id: `${uid}R${suffix}`,
      type: 'assignment_notification_rule',
      start_delay_in_minutes: minutes,
      urgency,
      contact_method: { id: via.id, type: `${via.type}_reference`, summary: via.summary, self: via.self, html_url: null },
    });
    return {
      id: uid,
      type: 'user',
      name: `Person ${i}`,
      email: `person${i}@bench.example`,
      time_zone: 'UTC',
      role: 'user',
      contact_methods: methods,
      // High urgency: SMS at once, a call after 5 minutes, email at once; low urgency (not imported): email.
      notification_rules: [rule('1', 0, methods[1]), rule('2', 5, methods[2]), rule('3', 0, methods[0]), rule('4', 0, methods[0], 'low')],
    };
  });
  const pick = (i: number) => users[i % users.length];
  const team = { id: 'PTBENCH', type: 'team', name: 'Bench', description: null };
  const schedules = Array.from({ length: sizes.schedules }, (_, s) => ({
    id: id('S', s),
    type: 'schedule',
    name: `Rotation ${s}`,
    time_zone: s % 2 ? 'Europe/Berlin' : 'America/New_York',
    schedule_layers: [1, 0].map((l) => ({
      id: id(`L${l}`, s),
      name: `Layer ${l + 1}`,
      start: '2026-01-05T09:00:00Z',
      end: null,
      rotation_virtual_start: '2026-01-05T09:00:00Z',
      rotation_turn_length_seconds: l ? 604_800 : 86_400,
      users: [0, 1, 2, 3].map((k) => ({ user: ref('user', pick(s * 4 + k + l).id, pick(s * 4 + k + l).name) })),
      restrictions: [],
    })),
  }));
  const escalationPolicies = Array.from({ length: sizes.policies }, (_, p) => ({
    id: id('E', p),
    type: 'escalation_policy',
    name: `Policy ${p}`,
    num_loops: 1,
    escalation_rules: [
      { id: id('R0', p), escalation_delay_in_minutes: 10, targets: [ref('schedule', schedules[p % schedules.length].id, '')] },
      { id: id('R1', p), escalation_delay_in_minutes: 20, targets: [ref('user', pick(p).id, pick(p).name)] },
    ],
    teams: [ref('team', team.id, team.name)],
  }));
  const services = Array.from({ length: sizes.services }, (_, v) => ({
    id: id('V', v),
    type: 'service',
    name: `Service ${v}`,
    description: null,
    escalation_policy: ref('escalation_policy', escalationPolicies[v % escalationPolicies.length].id, ''),
    teams: [ref('team', team.id, team.name)],
    integrations: [{ id: id('I', v), type: 'events_api_v2_inbound_integration', name: 'Events API v2', integration_key: randomBytes(16).toString('hex') }],
  }));
  return {
    users,
    teams: [team],
    members: { [team.id]: users.slice(0, 20).map((u) => ({ user: ref('user', u.id, u.name), role: 'responder' })) },
    schedules,
    overrides: {},
    escalationPolicies,
    services,
  };
}

const NOT_FOUND: FakeAnswer = { status: 404, body: { error: { message: 'Not Found', code: 2100 } } };

/** A classic page of a list: at most `pageSize` items whatever `limit` asks. */
function page(key: string, items: unknown[], q: URLSearchParams, pageSize: number): FakeAnswer {
  const limit = Math.min(Number(q.get('limit') ?? 25) || 25, pageSize);
  const offset = Number(q.get('offset') ?? 0) || 0;
  const slice = items.slice(offset, offset + limit);
  return { status: 200, body: { [key]: slice, limit, offset, more: offset + slice.length < items.length, total: null } };
}

const reference = (o: Obj) => ({ id: o.id, type: `${String(o.type)}_reference`, summary: o.summary, self: o.self, html_url: o.html_url ?? null });

/**
 * A user as GET /users lists them: contact methods and notification rules are references
 * unless `include[]` names them (then in full, as PagerDuty expands them).
 */
function listedUser(user: Obj, include: string[]): Obj {
  return {
    ...user,
    contact_methods: (user.contact_methods ?? []).map((c: Obj) => (include.includes('contact_methods') ? c : reference(c))),
    notification_rules: (user.notification_rules ?? []).map((r: Obj) => (include.includes('notification_rules') ? r : reference(r))),
  };
}

/** GET /users/{id}/notification_rules: `urgency` high (the default), low or all; `include[]=contact_methods` expands each rule's contact method. */
function userRules(user: Obj, q: URLSearchParams): FakeAnswer {
  const urgency = q.get('urgency') ?? 'high';
  if (!['high', 'low', 'all'].includes(urgency))
    return { status: 400, body: { error: { message: 'Invalid Input Provided', code: 2001, errors: ['Urgency must be one of high, low, all'] } } };
  const expand = q.getAll('include[]').includes('contact_methods');
  const methods = new Map((user.contact_methods ?? []).map((c: Obj) => [c.id, c]));
  const rules = (user.notification_rules ?? [])
    .filter((r: Obj) => urgency === 'all' || r.urgency === urgency)
    .map((r: Obj) => (expand ? { ...r, contact_method: methods.get(r.contact_method.id) ?? r.contact_method } : r));
  return { status: 200, body: { notification_rules: rules } };
}

function route(account: PagerDutyAccount, pageSize: number, expandIncludes: boolean) {
  return (req: FakeRequest): FakeAnswer | undefined => {
    const q = req.query;
    const parts = req.path.split('/').filter(Boolean);
    if (req.path === '/users') {
      const include = expandIncludes ? q.getAll('include[]') : [];
      return page(
        'users',
        account.users.map((u) => listedUser(u, include)),
        q,
        pageSize,
      );
    }
    if (parts[0] === 'users' && parts.length === 3 && (parts[2] === 'contact_methods' || parts[2] === 'notification_rules')) {
      const user = account.users.find((u) => u.id === parts[1]);
      if (!user) return NOT_FOUND;
      return parts[2] === 'contact_methods' ? { status: 200, body: { contact_methods: user.contact_methods ?? [] } } : userRules(user, q);
    }
    if (req.path === '/teams') return page('teams', account.teams, q, pageSize);
    if (parts[0] === 'teams' && parts[2] === 'members' && parts.length === 3) {
      const members = account.members[parts[1]];
      return members ? page('members', members, q, pageSize) : NOT_FOUND;
    }
    if (req.path === '/schedules') {
      const summaries = account.schedules.map(({ schedule_layers: _layers, ...rest }) => rest);
      return page('schedules', summaries, q, pageSize);
    }
    if (parts[0] === 'schedules' && parts.length === 2) {
      const schedule = account.schedules.find((s) => s.id === parts[1]);
      return schedule ? { status: 200, body: { schedule } } : NOT_FOUND;
    }
    if (parts[0] === 'schedules' && parts[2] === 'overrides' && parts.length === 3) {
      const since = Date.parse(q.get('since') ?? '');
      const until = Date.parse(q.get('until') ?? '');
      if (Number.isNaN(since) || Number.isNaN(until))
        return { status: 400, body: { error: { message: 'Invalid Input Provided', code: 2001, errors: ['since and until are required'] } } };
      const overrides = (account.overrides[parts[1]] ?? []).filter((o) => Date.parse(o.end) > since && Date.parse(o.start) < until);
      return { status: 200, body: { overrides } };
    }
    if (req.path === '/escalation_policies') return page('escalation_policies', account.escalationPolicies, q, pageSize);
    if (req.path === '/services') {
      const full = q.getAll('include[]').includes('integrations');
      const services = full
        ? account.services
        : account.services.map((s) => ({ ...s, integrations: s.integrations.map((i: Obj) => ref(i.type.replace(/_reference$/, ''), i.id, i.name)) }));
      return page('services', services, q, pageSize);
    }
    return undefined;
  };
}

export type PagerDutyApiFake = JsonApiFake & { account: PagerDutyAccount; token: string };

/**
 * Starts the fake on 127.0.0.1; `pageSize` 2 unless told, so lists take several pages.
 * `expandIncludes: false` answers GET /users with references whatever `include[]` asks.
 */
export async function startPagerDutyApi(
  opts: { token?: string; account?: PagerDutyAccount; pageSize?: number; expandIncludes?: boolean } = {},
): Promise<PagerDutyApiFake> {
  const token = opts.token ?? `pd-${randomBytes(12).toString('hex')}`;
  const account = opts.account ?? fixtureAccount();
  const fake = new JsonApiFake(
    (h) => h.authorization === `Token token=${token}` && (h.accept ?? '').includes('application/vnd.pagerduty+json;version=2'),
    { status: 401, body: { error: { message: 'Unauthorized', code: 2006 } } },
    route(account, opts.pageSize ?? 2, opts.expandIncludes !== false),
    NOT_FOUND,
  );
  await fake.start();
  return Object.assign(fake, { account, token });
}
