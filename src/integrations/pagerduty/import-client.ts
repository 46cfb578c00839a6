import { z } from 'zod';
import { ImportSourceError, mapLimit, parseAnswer, type Query, type SourceHttp } from '../../services/importers/source-http';
import {
  pageFields,
  pdContactMethod,
  pdNotificationRule,
  pdEscalationPolicy,
  pdOverride,
  pdSchedule,
  pdScheduleRef,
  pdService,
  pdTeam,
  pdTeamMember,
  pdUser,
  type PagerDutyData,
  type PdUser,
} from './import-schemas';

/**
 * Reads what an import needs from PagerDuty's REST API v2 (docs/importers.md): users with their
 * contact methods and notification rules, teams and
 * their members, schedules with their layers and future overrides, escalation policies, services
 * with their integrations. Lists are paged the classic way (`offset`, `limit`, `more`).
 */

export const PAGERDUTY_API_URL = 'https://api.pagerduty.com';

/** The headers of every request: the REST API's version and the account's API token. */
export const pagerDutyHeaders = (token: string): Record<string, string> => ({
  Accept: 'application/vnd.pagerduty+json;version=2',
  Authorization: `Token token=${token}`,
});

const PAGE = 100;
/** No account we import has more of one thing; a source that keeps saying `more` is stopped here. */
const MAX_ITEMS = 20_000;
/** How far ahead overrides are read. */
export const OVERRIDE_HORIZON_DAYS = 365;

async function paged<S extends z.ZodType>(http: SourceHttp, path: string, key: string, item: S, query: Query = {}): Promise<Array<z.output<S>>> {
  const schema = z.object({ ...pageFields, [key]: z.array(item).max(1000) });
  const all: Array<z.output<S>> = [];
  for (let offset = 0; ;) {
    const page = parseAnswer('PagerDuty', path, schema, await http.get(path, { ...query, limit: PAGE, offset })) as Record<string, unknown> & {
      more?: boolean | null;
    };
    const items = page[key] as Array<z.output<S>>;
    all.push(...items);
    if (!page.more || items.length === 0) return all;
    if (all.length >= MAX_ITEMS) throw new ImportSourceError('source_bad_answer', `PagerDuty lists more than ${MAX_ITEMS} ${key}: the importer stops there`);
    offset += items.length;
  }
}

/** A reference stands where the full object was not expanded: it has no address (contact method) or no delay (rule). */
const expanded = (u: PdUser): boolean =>
  (u.contact_methods ?? []).every((c) => typeof c.address === 'string') &&
  (u.notification_rules ?? []).every((r) => typeof r.start_delay_in_minutes === 'number');

/**
 * Users with their contact methods and notification rules: asked for in the list
 * (`include[]`), and read per user (`/users/{id}/contact_methods`, `/notification_rules`) for
 * anyone the list answered with references only.
 */
async function usersWithContacts(http: SourceHttp): Promise<PdUser[]> {
  const users = await paged(http, '/users', 'users', pdUser, { 'include[]': ['contact_methods', 'notification_rules'] });
  return mapLimit(users, 4, async (u) => {
    if (expanded(u)) return u;
    const base = `/users/${encodeURIComponent(u.id)}`;
    const methods = z.object({ contact_methods: z.array(pdContactMethod).max(1000) });
    const rules = z.object({ notification_rules: z.array(pdNotificationRule).max(1000) });
    const { contact_methods } = parseAnswer('PagerDuty', `${base}/contact_methods`, methods, await http.get(`${base}/contact_methods`));
    const { notification_rules } = parseAnswer(
      'PagerDuty',
      `${base}/notification_rules`,
      rules,
      await http.get(`${base}/notification_rules`, { urgency: 'all' }),
    );
    return { ...u, contact_methods, notification_rules };
  });
}

/** Everything an import reads, with at most four requests in flight. */
export async function readPagerDuty(http: SourceHttp, opts: { now: Date }): Promise<PagerDutyData> {
  const users = await usersWithContacts(http);
  const teams = await paged(http, '/teams', 'teams', pdTeam);
  const withMembers = await mapLimit(teams, 4, async (t) => ({
    ...t,
    members: await paged(http, `/teams/${encodeURIComponent(t.id)}/members`, 'members', pdTeamMember),
  }));
  const scheduleRefs = await paged(http, '/schedules', 'schedules', pdScheduleRef);
  const since = opts.now.toISOString();
  const until = new Date(opts.now.getTime() + OVERRIDE_HORIZON_DAYS * 86_400_000).toISOString();
  const schedules = await mapLimit(scheduleRefs, 4, async (ref) => {
    const path = `/schedules/${encodeURIComponent(ref.id)}`;
    const { schedule } = parseAnswer('PagerDuty', path, z.object({ schedule: pdSchedule }), await http.get(path));
    const overrides = await paged(http, `${path}/overrides`, 'overrides', pdOverride, { since, until });
    return { ...schedule, overrides };
  });
  const escalationPolicies = await paged(http, '/escalation_policies', 'escalation_policies', pdEscalationPolicy);
  const services = await paged(http, '/services', 'services', pdService, { 'include[]': ['integrations'] });
  return { users, teams: withMembers, schedules, escalationPolicies, services };
}
