import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { contactInputSchema, emailField, parseWith, uuidField, type ContactInput } from '../../domain/paging/config';
import { isUniqueViolation, knexOf } from '../../db/knex';
import { conflict, invalid, notFound } from '../errors';
import { isoOrNull, iso } from '../../db/timestamps';

/** Contact methods: the phone numbers, email addresses and devices a person is paged on. */

interface ContactRow {
  id: string;
  organization_id: string;
  user_id: string;
  type: string;
  address: string;
  label: string | null;
  disabled_at: Date | string | null;
  disabled_reason: string | null;
  created_at: Date | string;
}

const contactJson = (r: ContactRow) => ({
  id: r.id,
  organization_id: r.organization_id,
  user_id: r.user_id,
  type: r.type,
  address: r.address,
  label: r.label,
  disabled_at: isoOrNull(r.disabled_at),
  disabled_reason: r.disabled_reason,
  created_at: iso(r.created_at),
});
export type ContactMethodJson = ReturnType<typeof contactJson>;

const COLUMNS = ['id', 'organization_id', 'user_id', 'type', 'address', 'label', 'disabled_at', 'disabled_reason', 'created_at'];

/** A user by email, or a clear not-found. */
export async function userByEmail(orm: MikroORM, rawEmail: string): Promise<{ id: string; email: string }> {
  const email = parseWith(emailField, rawEmail);
  if (!email.ok) throw invalid(`user: ${email.message}`);
  const user = await knexOf(orm)('users').select('id', 'email').where({ email: email.value }).first();
  if (!user) throw notFound(`no user with email ${email.value}`);
  return user as { id: string; email: string };
}

/**
 * The workspace a user's contact method belongs to: the one named (they must be a member),
 * else their only membership; several memberships need a name.
 */
async function workspaceOfUser(orm: MikroORM, user: { id: string; email: string }, organizationId?: string): Promise<string> {
  const memberships = await knexOf(orm)('memberships').select('organization_id').where({ user_id: user.id });
  const orgs = memberships.map((m) => m.organization_id as string);
  if (organizationId) {
    if (!orgs.includes(organizationId)) throw invalid(`${user.email} is not a member of workspace ${organizationId}`);
    return organizationId;
  }
  if (orgs.length === 0) throw invalid(`${user.email} is not a member of any workspace`);
  if (orgs.length > 1) throw invalid(`${user.email} is a member of ${orgs.length} workspaces: name one with --org`);
  return orgs[0];
}

/** Adds a contact method to a user; the same user, type and address twice is a conflict. */
export async function addContactMethod(orm: MikroORM, input: ContactInput): Promise<ContactMethodJson> {
  const parsed = parseWith(contactInputSchema, input);
  if (!parsed.ok) throw invalid(parsed.message);
  const c = parsed.value;
  const user = await userByEmail(orm, c.email);
  const row: ContactRow = {
    id: randomUUID(),
    organization_id: await workspaceOfUser(orm, user, c.organizationId),
    user_id: user.id,
    type: c.type,
    address: c.address,
    label: c.label,
    disabled_at: null,
    disabled_reason: null,
    created_at: new Date(),
  };
  try {
    await knexOf(orm)('contact_methods').insert(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`${user.email} already has this ${c.type} address as a contact method`, 'duplicate_contact_method');
    throw err;
  }
  return contactJson(row);
}

/** A user's contact methods, oldest first (optionally only those of one workspace). */
export async function listContactMethods(orm: MikroORM, input: { email: string; organizationId?: string }): Promise<ContactMethodJson[]> {
  const user = await userByEmail(orm, input.email);
  const query = knexOf(orm)('contact_methods').select(COLUMNS).where({ user_id: user.id });
  if (input.organizationId) query.andWhere({ organization_id: input.organizationId });
  const rows = await query.orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map(contactJson);
}

/** A contact method by id; with `email`, only when it is that user's. */
export async function getContactMethod(orm: MikroORM, input: { id: string; email?: string }): Promise<ContactMethodJson> {
  const id = parseWith(uuidField('a contact method id'), input.id);
  if (!id.ok) throw invalid(`contact: ${id.message}`);
  const row = await knexOf(orm)('contact_methods').select(COLUMNS).where({ id: id.value }).first();
  const user = input.email === undefined ? undefined : await userByEmail(orm, input.email);
  if (!row || (user && row.user_id !== user.id)) {
    throw notFound(user ? `contact method ${id.value} is not a contact method of ${user.email}` : `contact method ${id.value} not found`);
  }
  return contactJson(row);
}

/** Removes a contact method and the notification rules that used it, together. */
export async function removeContactMethod(orm: MikroORM, input: { id: string; email?: string }) {
  const contact = await getContactMethod(orm, input);
  return knexOf(orm).transaction(async (trx) => {
    const rules = await trx('notification_rules').where({ contact_method_id: contact.id }).delete();
    await trx('contact_methods').where({ id: contact.id }).delete();
    return { id: contact.id, removed: true, rules_removed: rules };
  });
}
