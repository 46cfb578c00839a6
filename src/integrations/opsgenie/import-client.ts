import { z } from 'zod';
import { ImportSourceError, mapLimit, parseAnswer, type Query, type SourceHttp } from '../../services/importers/source-http';
import {
  ogContact,
  ogEscalation,
  ogIntegration,
  ogIntegrationDetail,
  ogNotificationRule,
  ogNotificationRuleDetail,
  ogNotificationStep,
  ogOverride,
  ogPaging,
  ogSchedule,
  ogService,
  ogTeam,
  ogTeamDetail,
  ogUser,
  type OpsgenieData,
} from './import-schemas';

/**
 * Reads what an import needs from Opsgenie's REST API (docs/importers.md): users with their
 * contacts and notification rules (and those rules' steps), teams with
 * their members, schedules with their rotations and overrides, escalations, services and API
 * integrations with their keys. Paged lists follow `paging.next`, taking only its offset and
 * limit: the next request goes to the same API, never to a host an answer names.
 */

export const OPSGENIE_API_URL = 'https://api.opsgenie.com';

/** The header of every request: the API integration's key. */
export const opsgenieHeaders = (apiKey: string): Record<string, string> => ({ Authorization: `GenieKey ${apiKey}` });

const PAGE = 100;
const MAX_ITEMS = 20_000;

async function listed<S extends z.ZodType>(http: SourceHttp, path: string, item: S, query: Query = {}, paged = false): Promise<Array<z.output<S>>> {
  const schema = z.object({ data: z.array(item).max(1000), paging: ogPaging });
  const all: Array<z.output<S>> = [];
  let page: Query = paged ? { limit: PAGE, offset: 0 } : {};
  for (;;) {
    const answer = parseAnswer('Opsgenie', path, schema, await http.get(path, { ...query, ...page }));
    const items = answer.data as Array<z.output<S>>;
    all.push(...items);
    const next = answer.paging?.next;
    if (!next || items.length === 0) return all;
    if (all.length >= MAX_ITEMS)
      throw new ImportSourceError('source_bad_answer', `Opsgenie lists more than ${MAX_ITEMS} items at ${path}: the importer stops there`);
    const params = new URL(next, 'https://paging.invalid').searchParams;
    const offset = Number(params.get('offset'));
    if (!Number.isInteger(offset) || offset <= Number(page.offset ?? -1)) return all;
    page = { limit: Number(params.get('limit')) || PAGE, offset };
  }
}

const one = async <S extends z.ZodType>(http: SourceHttp, path: string, item: S): Promise<z.output<S>> =>
  (parseAnswer('Opsgenie', path, z.object({ data: item }), await http.get(path)) as { data: z.output<S> }).data;

/** The rules that page a person when an alert is created: their steps are read; the others are listed only, to be reported. */
const PAGING_RULES = new Set(['create-alert']);

/** A user's contacts and notification rules, with the steps of those that page (`/v2/users/{id}/contacts`, `/notification-rules`). */
async function contactsOf(http: SourceHttp, userId: string): Promise<Pick<OpsgenieData['users'][number], 'contacts' | 'notificationRules'>> {
  const base = `/v2/users/${encodeURIComponent(userId)}`;
  const contacts = await listed(http, `${base}/contacts`, ogContact);
  const rules = await listed(http, `${base}/notification-rules`, ogNotificationRule);
  const notificationRules = [];
  for (const rule of rules) {
    if (!PAGING_RULES.has(rule.actionType) || rule.enabled === false) {
      notificationRules.push({ ...rule, steps: [] });
      continue;
    }
    const path = `${base}/notification-rules/${encodeURIComponent(rule.id)}`;
    const detail = await one(http, path, ogNotificationRuleDetail);
    notificationRules.push({ ...detail, steps: await listed(http, `${path}/steps`, ogNotificationStep) });
  }
  return { contacts, notificationRules };
}

/** Everything an import reads, with at most four requests in flight. */
export async function readOpsgenie(http: SourceHttp): Promise<OpsgenieData> {
  const userList = await listed(http, '/v2/users', ogUser, {}, true);
  const users = await mapLimit(userList, 4, async (u) => ({ ...u, ...(await contactsOf(http, u.id)) }));
  const teamList = await listed(http, '/v2/teams', ogTeam);
  const teams = await mapLimit(teamList, 4, (t) => one(http, `/v2/teams/${encodeURIComponent(t.id)}`, ogTeamDetail));
  const scheduleList = await listed(http, '/v2/schedules', ogSchedule, { expand: 'rotation' });
  const schedules = await mapLimit(scheduleList, 4, async (s) => ({
    ...s,
    overrides: await listed(http, `/v2/schedules/${encodeURIComponent(s.id)}/overrides`, ogOverride),
  }));
  const escalations = await listed(http, '/v2/escalations', ogEscalation);
  const services = await listed(http, '/v1/services', ogService, {}, true);
  const integrationList = await listed(http, '/v2/integrations', ogIntegration);
  // Only API integrations carry a key senders post with; their details hold it.
  const integrations = await mapLimit(integrationList, 4, (i) =>
    i.type === 'API' ? one(http, `/v2/integrations/${encodeURIComponent(i.id)}`, ogIntegrationDetail) : Promise.resolve({ ...i }),
  );
  return { users, teams, schedules, escalations, services, integrations };
}
