import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { ChannelId } from '../../domain/channels';
import type { PageJob } from '../../domain/paging/escalation-plan';
import { isUuid } from '../../domain/ids';
import { NEVER_PAGED_ROLE } from '../../domain/roles';
import { parseWith, ruleInputSchema, uuidField, type RuleInput } from '../../domain/paging/config';
import { contactMethodIn, getContactMethod, userByEmail } from './contacts';
import type { ContactMethodJson } from './contact-rows';
import { isUniqueViolation, knexOf } from '../../db/knex';
import { recordAudit, SYSTEM_CLI } from '../audit';
import { conflict, invalid, notFound } from '../errors';
import type { ChangeOptions } from './changes';
import type { DisabledContact } from '../../domain/paging/decisions';
import { disabledContact } from './escalation-context';

/** Notification rules: which contact method to use, how long after a person is paged. */

interface RuleRow {
  id: string;
  user_id: string;
  contact_method_id: string;
  delay_seconds: number;
}

const ruleJson = (r: RuleRow) => ({ id: r.id, user_id: r.user_id, contact_method_id: r.contact_method_id, delay_seconds: r.delay_seconds });
export type NotificationRuleJson = ReturnType<typeof ruleJson>;

/** Stores a rule on a usable contact method, with its audit entry; the same method and delay twice is a conflict. */
async function insertRule(orm: MikroORM, contact: ContactMethodJson, delaySeconds: number, opts: ChangeOptions): Promise<NotificationRuleJson> {
  if (contact.disabled_at) throw invalid(`contact method ${contact.id} is disabled (${contact.disabled_reason ?? 'no reason given'}): add a working one`);
  try {
    return await knexOf(orm).transaction((trx) => writeRule(trx, contact, delaySeconds, opts));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`contact method ${contact.id} already has a rule at ${delaySeconds} seconds`, 'duplicate_notification_rule');
    throw err;
  }
}

/** Stores a rule on a usable contact method and its audit entry, in the caller's transaction. */
export async function writeRule(
  trx: Knex,
  contact: Pick<ContactMethodJson, 'id' | 'organization_id' | 'user_id' | 'type'>,
  delaySeconds: number,
  opts: ChangeOptions,
): Promise<NotificationRuleJson> {
  const row = {
    id: randomUUID(),
    organization_id: contact.organization_id,
    user_id: contact.user_id,
    contact_method_id: contact.id,
    delay_seconds: delaySeconds,
    created_at: new Date(),
  };
  await trx('notification_rules').insert(row);
  await recordAudit(trx, {
    organizationId: row.organization_id,
    actor: opts.actor ?? SYSTEM_CLI,
    action: 'notification_rule.create',
    targetType: 'notification_rule',
    targetId: row.id,
    details: { user_id: row.user_id, contact_method_id: contact.id, type: contact.type, delay_seconds: delaySeconds },
  });
  return ruleJson(row);
}

/** Adds a rule on one of the user's own, usable contact methods; the same method and delay twice is a conflict. */
export async function addNotificationRule(orm: MikroORM, input: RuleInput, opts: ChangeOptions = {}): Promise<NotificationRuleJson> {
  const parsed = parseWith(ruleInputSchema, input);
  if (!parsed.ok) throw invalid(parsed.message);
  const { email, contactMethodId, delaySeconds } = parsed.value;
  return insertRule(orm, await getContactMethod(orm, { id: contactMethodId, email }), delaySeconds, opts);
}

/**
 * Adds a rule for a member of the workspace on one of their contact methods (a method of
 * someone else, or of another workspace, is not found). An unverified phone number may carry
 * rules: they page once it is verified.
 */
export async function addMemberNotificationRule(
  orm: MikroORM,
  input: { organizationId: string; userId: string; contactMethodId: string; delaySeconds: number },
  opts: ChangeOptions = {},
): Promise<NotificationRuleJson> {
  const contact = await contactMethodIn(orm, { id: input.contactMethodId, organizationId: input.organizationId });
  if (contact.user_id !== input.userId) throw notFound(`contact method ${input.contactMethodId} is not a contact method of this user`);
  const delay = parseWith(ruleInputSchema.shape.delaySeconds, input.delaySeconds);
  if (!delay.ok) throw invalid(`delay_seconds: ${delay.message}`);
  return insertRule(orm, contact, delay.value, opts);
}

const RULE_ORDER = [{ column: 'delay_seconds' }, { column: 'created_at' }, { column: 'id' }];

/** A user's rules, in the order they fire. */
export async function listNotificationRules(orm: MikroORM, input: { email: string }): Promise<NotificationRuleJson[]> {
  const user = await userByEmail(orm, input.email);
  const rows = await knexOf(orm)('notification_rules')
    .select('id', 'user_id', 'contact_method_id', 'delay_seconds')
    .where({ user_id: user.id })
    .orderBy(RULE_ORDER);
  return rows.map(ruleJson);
}

/** A member's rules in the workspace, in the order they fire. */
export async function listMemberNotificationRules(orm: MikroORM, input: { organizationId: string; userId: string }): Promise<NotificationRuleJson[]> {
  const rows = await knexOf(orm)('notification_rules')
    .select('id', 'user_id', 'contact_method_id', 'delay_seconds')
    .where({ organization_id: input.organizationId, user_id: input.userId })
    .orderBy(RULE_ORDER);
  return rows.map(ruleJson);
}

/** A rule of the workspace (another workspace's is not found). */
export async function notificationRuleIn(orm: MikroORM, input: { id: string; organizationId: string }): Promise<NotificationRuleJson> {
  if (!isUuid(input.id)) throw invalid('notification rule id must be a UUID');
  const row = await knexOf(orm)('notification_rules')
    .select('id', 'user_id', 'contact_method_id', 'delay_seconds')
    .where({ id: input.id, organization_id: input.organizationId })
    .first();
  if (!row) throw notFound(`notification rule ${input.id} not found`);
  return ruleJson(row);
}

/** Removes one rule (with `organizationId`, only one of that workspace). */
export async function removeNotificationRule(orm: MikroORM, input: { id: string; organizationId?: string }, opts: ChangeOptions = {}) {
  const id = parseWith(uuidField('a notification rule id'), input.id);
  if (!id.ok) throw invalid(`rule: ${id.message}`);
  return knexOf(orm).transaction(async (trx) => {
    const row = await trx('notification_rules')
      .select('id', 'organization_id', 'user_id', 'contact_method_id', 'delay_seconds')
      .where({ id: id.value, ...(input.organizationId ? { organization_id: input.organizationId } : {}) })
      .first();
    if (!row) throw notFound(`notification rule ${id.value} not found`);
    await trx('notification_rules').where({ id: row.id }).delete();
    await recordAudit(trx, {
      organizationId: row.organization_id,
      actor: opts.actor ?? SYSTEM_CLI,
      action: 'notification_rule.delete',
      targetType: 'notification_rule',
      targetId: row.id,
      details: { user_id: row.user_id, contact_method_id: row.contact_method_id, delay_seconds: row.delay_seconds },
    });
    return { id: row.id as string, removed: true };
  });
}

/** One delivery to plan when a person is paged. `ruleId` is null for the default (see below). */
export interface PlannedContact {
  ruleId: string | null;
  contactMethodId: string;
  type: ChannelId;
  address: string;
  delaySeconds: number;
}

/** A person's pages by their notification rules (the workflow's steps and the what-if replay both page by this). */
export function ruleJobs(p: UserPagingRules): PageJob[] {
  return p.rules.map((r) => ({ userId: p.userId, contactMethodId: r.contactMethodId, channel: r.type, address: r.address, delaySeconds: r.delaySeconds }));
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
 * Contact methods a provider disabled, and phone numbers nobody verified yet, are skipped (an
 * unverified number is never paged). A user with no usable rule still gets paged:
 * at once, on each of their enabled email contact methods (none: `rules` is empty, and the
 * caller should say on the timeline that the person could not be reached). With
 * `organizationId`, only that workspace's contact methods count.
 */
export async function notificationRulesFor(orm: MikroORM, userIds: string[], opts: { organizationId?: string } = {}): Promise<UserPagingRules[]> {
  return (await readPagingPeople(knexOf(orm), userIds, opts.organizationId)).people;
}

/**
 * What paging a step's people needs, in one statement (one round trip): notificationRulesFor's
 * answer, and the contact methods of theirs in the workspace that do not page (disabledContacts'
 * answer: a provider disabled them, or nobody verified them), for the step's decision entry.
 */
export async function pagingPeople(
  k: Knex,
  userIds: string[],
  organizationId: string,
): Promise<{ people: UserPagingRules[]; disabled: Map<string, DisabledContact[]> }> {
  return readPagingPeople(k, userIds, organizationId);
}

interface ContactRow {
  id: string;
  user_id: string;
  type: ChannelId;
  address: string;
  disabled_at: string | null;
  verified_at: string | null;
  disabled_reason: string | null;
}

async function readPagingPeople(
  k: Knex,
  userIds: string[],
  organizationId: string | undefined,
): Promise<{ people: UserPagingRules[]; disabled: Map<string, DisabledContact[]> }> {
  const ids = [...new Set(userIds)].filter(isUuid);
  if (ids.length === 0) return { people: [], disabled: new Map() };
  const scope = organizationId ? 'and c.organization_id = :org' : '';
  // A Stakeholder of the workspace is never paged, whatever names them (docs/importers.md, "Roles").
  const pageable = organizationId
    ? `and not exists (select 1 from memberships m where m.user_id = u.id and m.organization_id = :org and m.role = '${NEVER_PAGED_ROLE}')`
    : '';
  // Aggregates keep each list's order: rules by delay, then age; contact methods by age.
  const { rows } = (await k.raw(
    `select
       (select coalesce(json_agg(json_build_object('id', u.id, 'email', u.email)), '[]') from users u where u.id = any(:ids::uuid[]) ${pageable}) as users,
       (select coalesce(json_agg(json_build_object('rule_id', x.rule_id, 'user_id', x.user_id, 'contact_method_id', x.contact_method_id,
                                                   'type', x.type, 'address', x.address, 'delay_seconds', x.delay_seconds)
                                 order by x.delay_seconds, x.created_at, x.rule_id), '[]')
          from (select r.id as rule_id, r.user_id, c.id as contact_method_id, c.type, c.address, r.delay_seconds, r.created_at
                  from notification_rules r join contact_methods c on c.id = r.contact_method_id
                 where r.user_id = any(:ids::uuid[]) and c.disabled_at is null and c.verified_at is not null ${scope}) x) as rules,
       (select coalesce(json_agg(json_build_object('id', c.id, 'user_id', c.user_id, 'type', c.type, 'address', c.address,
                                                   'disabled_at', c.disabled_at, 'verified_at', c.verified_at, 'disabled_reason', c.disabled_reason)
                                 order by c.created_at, c.id), '[]')
          from contact_methods c where c.user_id = any(:ids::uuid[]) ${scope}) as contacts`,
    { ids: `{${ids.join(',')}}`, ...(organizationId ? { org: organizationId } : {}) },
  )) as {
    rows: Array<{
      users: Array<{ id: string; email: string }>;
      rules: Array<{ rule_id: string; user_id: string; contact_method_id: string; type: ChannelId; address: string; delay_seconds: number }>;
      contacts: ContactRow[];
    }>;
  };
  const { users, rules, contacts: all } = rows[0];
  // An unverified phone number is never paged, nor is a method a provider disabled.
  const usable = (c: ContactRow) => c.disabled_at === null && c.verified_at !== null;
  const rulesOf = groupBy(rules, (r): PlannedContact => ({
    ruleId: r.rule_id,
    contactMethodId: r.contact_method_id,
    type: r.type,
    address: r.address,
    delaySeconds: r.delay_seconds,
  }));
  const contactsOf = groupBy(all.filter(usable), (c) => ({ id: c.id, type: c.type, address: c.address }));
  const defaultRules = (userId: string): PlannedContact[] =>
    (contactsOf.get(userId) ?? [])
      .filter((c) => c.type === 'email')
      .map((c) => ({ ruleId: null, contactMethodId: c.id, type: c.type, address: c.address, delaySeconds: 0 }));
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  const people = ids
    .filter((id) => emailOf.has(id))
    .map((id) => ({ userId: id, email: emailOf.get(id)!, rules: rulesOf.get(id) ?? defaultRules(id), contacts: contactsOf.get(id) ?? [] }));
  return {
    people,
    disabled: organizationId
      ? groupBy(
          all.filter((c) => !usable(c)),
          disabledContact,
        )
      : new Map(),
  };
}

function groupBy<R extends { user_id: string }, T>(rows: R[], map: (row: R) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) out.set(row.user_id, [...(out.get(row.user_id) ?? []), map(row)]);
  return out;
}
