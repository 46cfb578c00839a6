import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ChannelId } from '../../domain/channels';
import { isUuid } from '../../domain/ids';
import { parseWith, ruleInputSchema, uuidField, type RuleInput } from '../../domain/paging/config';
import { getContactMethod, userByEmail } from './contacts';
import { isUniqueViolation, knexOf } from '../../db/knex';
import { conflict, invalid, notFound } from '../errors';

/** Notification rules: which contact method to use, how long after a person is paged. */

interface RuleRow {
  id: string;
  user_id: string;
  contact_method_id: string;
  delay_seconds: number;
}

const ruleJson = (r: RuleRow) => ({ id: r.id, user_id: r.user_id, contact_method_id: r.contact_method_id, delay_seconds: r.delay_seconds });
export type NotificationRuleJson = ReturnType<typeof ruleJson>;

/** Adds a rule on one of the user's own, usable contact methods; the same method and delay twice is a conflict. */
export async function addNotificationRule(orm: MikroORM, input: RuleInput): Promise<NotificationRuleJson> {
  const parsed = parseWith(ruleInputSchema, input);
  if (!parsed.ok) throw invalid(parsed.message);
  const { email, contactMethodId, delaySeconds } = parsed.value;
  const contact = await getContactMethod(orm, { id: contactMethodId, email });
  if (contact.disabled_at) throw invalid(`contact method ${contact.id} is disabled (${contact.disabled_reason ?? 'no reason given'}): add a working one`);
  const row = { id: randomUUID(), organization_id: contact.organization_id, user_id: contact.user_id, contact_method_id: contact.id, delay_seconds: delaySeconds, created_at: new Date() };
  try {
    await knexOf(orm)('notification_rules').insert(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`contact method ${contact.id} already has a rule at ${delaySeconds} seconds`, 'duplicate_notification_rule');
    throw err;
  }
  return ruleJson(row);
}

/** A user's rules, in the order they fire. */
export async function listNotificationRules(orm: MikroORM, input: { email: string }): Promise<NotificationRuleJson[]> {
  const user = await userByEmail(orm, input.email);
  const rows = await knexOf(orm)('notification_rules')
    .select('id', 'user_id', 'contact_method_id', 'delay_seconds')
    .where({ user_id: user.id })
    .orderBy([{ column: 'delay_seconds' }, { column: 'created_at' }, { column: 'id' }]);
  return rows.map(ruleJson);
}

/** Removes one rule. */
export async function removeNotificationRule(orm: MikroORM, input: { id: string }) {
  const id = parseWith(uuidField('a notification rule id'), input.id);
  if (!id.ok) throw invalid(`rule: ${id.message}`);
  const n = await knexOf(orm)('notification_rules').where({ id: id.value }).delete();
  if (n === 0) throw notFound(`notification rule ${id.value} not found`);
  return { id: id.value, removed: true };
}

/** One delivery to plan when a person is paged. `ruleId` is null for the default (see below). */
export interface PlannedContact {
  ruleId: string | null;
  contactMethodId: string;
  type: ChannelId;
  address: string;
  delaySeconds: number;
}

/** A paged person: their deliveries in firing order, and every usable contact method (Form B picks by channel). */
export interface UserPagingRules {
  userId: string;
  email: string;
  rules: PlannedContact[];
  contacts: Array<{ id: string; type: ChannelId; address: string }>;
}

/**
 * What to send when these users are paged, in the order given (unknown ids are left out).
 * Contact methods a provider disabled are skipped. A user with no usable rule still gets paged:
 * at once, on each of their enabled email contact methods (none: `rules` is empty, and the
 * caller should say on the timeline that the person could not be reached). With
 * `organizationId`, only that workspace's contact methods count.
 */
export async function notificationRulesFor(orm: MikroORM, userIds: string[], opts: { organizationId?: string } = {}): Promise<UserPagingRules[]> {
  const ids = [...new Set(userIds)].filter(isUuid);
  if (ids.length === 0) return [];
  const knex = knexOf(orm);
  const scope = opts.organizationId ? { 'c.organization_id': opts.organizationId } : {};
  const [users, rules, contacts] = await Promise.all([
    knex('users').select('id', 'email').whereIn('id', ids),
    knex('notification_rules as r')
      .join('contact_methods as c', 'c.id', 'r.contact_method_id')
      .select('r.id as rule_id', 'r.user_id', 'c.id as contact_method_id', 'c.type', 'c.address', 'r.delay_seconds')
      .whereIn('r.user_id', ids)
      .whereNull('c.disabled_at')
      .where(scope)
      .orderBy([{ column: 'r.delay_seconds' }, { column: 'r.created_at' }, { column: 'r.id' }]),
    knex('contact_methods as c')
      .select('c.id', 'c.user_id', 'c.type', 'c.address')
      .whereIn('c.user_id', ids)
      .whereNull('c.disabled_at')
      .where(scope)
      .orderBy([{ column: 'c.created_at' }, { column: 'c.id' }]),
  ]);
  const rulesOf = groupBy(rules, (r): PlannedContact => ({ ruleId: r.rule_id, contactMethodId: r.contact_method_id, type: r.type, address: r.address, delaySeconds: r.delay_seconds }));
  const contactsOf = groupBy(contacts, (c) => ({ id: c.id as string, type: c.type as ChannelId, address: c.address as string }));
  const defaultRules = (userId: string): PlannedContact[] =>
    (contactsOf.get(userId) ?? [])
      .filter((c) => c.type === 'email')
      .map((c) => ({ ruleId: null, contactMethodId: c.id, type: c.type, address: c.address, delaySeconds: 0 }));
  const emailOf = new Map(users.map((u) => [u.id as string, u.email as string]));
  return ids.filter((id) => emailOf.has(id)).map((id) => ({ userId: id, email: emailOf.get(id)!, rules: rulesOf.get(id) ?? defaultRules(id), contacts: contactsOf.get(id) ?? [] }));
}

function groupBy<R extends { user_id: string }, T>(rows: R[], map: (row: R) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) out.set(row.user_id, [...(out.get(row.user_id) ?? []), map(row)]);
  return out;
}
