import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { contactInputSchema, emailField, parseWith, uuidField, type ContactInput } from '../../domain/paging/config';
import { isUuid } from '../../domain/ids';
import { checkTargetUrl } from '../../domain/targets';
import { isUniqueViolation, knexOf } from '../../db/knex';
import { recordAudit, SYSTEM_CLI } from '../audit';
import { conflict, invalid, notFound } from '../errors';
import { CONTACT_COLUMNS, contactJson, type ContactMethodJson, type ContactRow } from './contact-rows';

export type { ContactMethodJson } from './contact-rows';
import type { ChangeOptions } from './changes';
import { checkNewNumberAllowance, isPhoneChannel, newVerificationCode, sendVerificationCode, type SendVerificationCode } from './contact-verification';

/** Contact methods: the phone numbers, email addresses and devices a person is paged on. */

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

/**
 * Stores a contact method and its audit entry together. A phone number added by a member is
 * stored unverified and a code is texted to it before the transaction commits (a failed send
 * leaves nothing behind); everything else counts as verified at once.
 */
async function insertContactMethod(orm: MikroORM, c: NewContactMethod, opts: ChangeOptions & { sendCode?: SendVerificationCode }): Promise<ContactMethodJson> {
  try {
    return await knexOf(orm).transaction((trx) => writeContactMethod(trx, c, opts));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`${c.email} already has this ${c.type} address as a contact method`, 'duplicate_contact_method');
    throw err;
  }
}

/** A contact method to store: whose, which channel, the normalised address. */
export interface NewContactMethod {
  organizationId: string;
  userId: string;
  email: string;
  type: ContactRow['type'];
  address: string;
  label: string | null;
  /** `import` when an import brings it in (verified at once, as the source paged it): docs/importers.md. */
  source?: 'import';
}

/** insertContactMethod in the caller's transaction (a unique violation is left to the caller). */
export async function writeContactMethod(
  trx: Knex,
  c: NewContactMethod,
  opts: ChangeOptions & { sendCode?: SendVerificationCode },
): Promise<ContactMethodJson> {
  const now = new Date();
  const needsCode = opts.sendCode !== undefined && isPhoneChannel(c.type);
  const code = needsCode ? newVerificationCode(now) : undefined;
  const row: ContactRow = {
    id: randomUUID(),
    organization_id: c.organizationId,
    user_id: c.userId,
    type: c.type,
    address: c.address,
    label: c.label,
    disabled_at: null,
    disabled_reason: null,
    verified_at: needsCode ? null : now,
    source: c.source ?? null,
    created_at: now,
  };
  if (code) await checkNewNumberAllowance(trx, { organizationId: row.organization_id, userId: row.user_id }, now);
  if (row.type === 'push_web') await refuseSecondSubscription(trx, c);
  await trx('contact_methods').insert({ ...row, ...(code ? code.columns : {}) });
  await recordAudit(trx, {
    organizationId: row.organization_id,
    actor: opts.actor ?? SYSTEM_CLI,
    action: 'contact_method.create',
    targetType: 'contact_method',
    targetId: row.id,
    details: { user_id: row.user_id, user: c.email, type: row.type, label: row.label, verified: !needsCode, ...(c.source ? { source: c.source } : {}) },
  });
  if (code && opts.sendCode) await sendVerificationCode(opts.sendCode, row.address, code.plaintext);
  return contactJson(row);
}

/**
 * One contact method per browser: a subscription whose endpoint this person already has (the
 * browser re-subscribed with new keys) is a duplicate too, not only the same JSON.
 */
async function refuseSecondSubscription(trx: Knex, c: NewContactMethod): Promise<void> {
  const { endpoint } = JSON.parse(c.address) as { endpoint: string };
  const existing = await trx('contact_methods')
    .where({ user_id: c.userId, type: 'push_web' })
    .andWhereRaw(`(address::jsonb ->> 'endpoint') = ?`, [endpoint])
    .first('id');
  if (existing) throw conflict(`${c.email} already has this browser (push_web endpoint) as contact method ${existing.id}`, 'duplicate_contact_method');
}

/**
 * A browser push endpoint is a URL the browser chose: refused as written if the SSRF guard refuses
 * it (400 naming `address`; never the subscription itself), checked again at each push.
 */
function assertPushEndpoint(type: string, address: string, allowPrivate: boolean): void {
  if (type !== 'push_web') return;
  const verdict = checkTargetUrl((JSON.parse(address) as { endpoint: string }).endpoint, { allowPrivate, who: 'web push reaches' });
  if (!verdict.ok) throw invalid(`address: the push subscription's endpoint ${verdict.message}`);
}

/** Adds a contact method to a user (the CLI: the operator vouches for it, so it is verified); the same user, type and address twice is a conflict. */
export async function addContactMethod(
  orm: MikroORM,
  input: ContactInput,
  opts: ChangeOptions & { allowPrivateTargets?: boolean } = {},
): Promise<ContactMethodJson> {
  const parsed = parseWith(contactInputSchema, input);
  if (!parsed.ok) throw invalid(parsed.message);
  const c = parsed.value;
  assertPushEndpoint(c.type, c.address, opts.allowPrivateTargets ?? false);
  const user = await userByEmail(orm, c.email);
  const organizationId = await workspaceOfUser(orm, user, c.organizationId);
  return insertContactMethod(orm, { organizationId, userId: user.id, email: user.email, type: c.type, address: c.address, label: c.label }, opts);
}

/** A member of the workspace by id, or not found. */
export async function memberOf(orm: MikroORM, organizationId: string, userId: string): Promise<{ id: string; email: string }> {
  const row = await knexOf(orm)('users as u')
    .join('memberships as m', 'm.user_id', 'u.id')
    .select('u.id', 'u.email')
    .where({ 'm.organization_id': organizationId, 'u.id': userId })
    .first();
  if (!row) throw notFound(`user ${userId} is not a member of this workspace`);
  return row as { id: string; email: string };
}

/**
 * Adds a contact method for a member from the dashboard: validated as the CLI does; a phone
 * number starts unverified and gets a code through `sendCode`.
 */
export async function addMemberContactMethod(
  orm: MikroORM,
  input: { organizationId: string; userId: string; type: string; address: string; label?: string | null },
  opts: ChangeOptions & { sendCode: SendVerificationCode; allowPrivateTargets?: boolean },
): Promise<ContactMethodJson> {
  // A Slack member id is only stored by linking (POST /api/me/slack/link, docs/chat.md): Slack vouches for it.
  if (input.type === 'slack')
    throw invalid('type: slack is added by linking Slack (POST /api/me/slack/link), not by typing a member id', 'slack_link_required');
  const user = await memberOf(orm, input.organizationId, input.userId);
  const parsed = parseWith(contactInputSchema, {
    email: user.email,
    type: input.type,
    address: input.address,
    label: input.label,
    organizationId: input.organizationId,
  });
  if (!parsed.ok) throw invalid(parsed.message);
  const c = parsed.value;
  assertPushEndpoint(c.type, c.address, opts.allowPrivateTargets ?? false);
  return insertContactMethod(
    orm,
    { organizationId: input.organizationId, userId: user.id, email: user.email, type: c.type, address: c.address, label: c.label },
    opts,
  );
}

/** A member's contact methods in the workspace, oldest first. */
export async function listMemberContactMethods(orm: MikroORM, input: { organizationId: string; userId: string }): Promise<ContactMethodJson[]> {
  const rows = await knexOf(orm)('contact_methods')
    .select(CONTACT_COLUMNS)
    .where({ organization_id: input.organizationId, user_id: input.userId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map(contactJson);
}

/** A contact method of the workspace (another workspace's is not found). */
export async function contactMethodIn(orm: MikroORM, input: { id: string; organizationId: string }): Promise<ContactMethodJson> {
  if (!isUuid(input.id)) throw invalid('contact method id must be a UUID');
  const row = await knexOf(orm)('contact_methods').select(CONTACT_COLUMNS).where({ id: input.id, organization_id: input.organizationId }).first();
  if (!row) throw notFound(`contact method ${input.id} not found`);
  return contactJson(row);
}

/** A user's contact methods, oldest first (optionally only those of one workspace). */
export async function listContactMethods(orm: MikroORM, input: { email: string; organizationId?: string }): Promise<ContactMethodJson[]> {
  const user = await userByEmail(orm, input.email);
  const query = knexOf(orm)('contact_methods').select(CONTACT_COLUMNS).where({ user_id: user.id });
  if (input.organizationId) query.andWhere({ organization_id: input.organizationId });
  const rows = await query.orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map(contactJson);
}

/** A contact method by id; with `email`, only when it is that user's. */
export async function getContactMethod(orm: MikroORM, input: { id: string; email?: string }): Promise<ContactMethodJson> {
  const id = parseWith(uuidField('a contact method id'), input.id);
  if (!id.ok) throw invalid(`contact: ${id.message}`);
  const row = await knexOf(orm)('contact_methods').select(CONTACT_COLUMNS).where({ id: id.value }).first();
  const user = input.email === undefined ? undefined : await userByEmail(orm, input.email);
  if (!row || (user && row.user_id !== user.id)) {
    throw notFound(user ? `contact method ${id.value} is not a contact method of ${user.email}` : `contact method ${id.value} not found`);
  }
  return contactJson(row);
}

/** Removes a contact method and the notification rules that used it, together (with `organizationId`, only one of that workspace). */
export async function removeContactMethod(orm: MikroORM, input: { id: string; email?: string; organizationId?: string }, opts: ChangeOptions = {}) {
  const contact = input.organizationId
    ? await contactMethodIn(orm, { id: input.id, organizationId: input.organizationId })
    : await getContactMethod(orm, input);
  return knexOf(orm).transaction(async (trx) => {
    const rules = await trx('notification_rules').where({ contact_method_id: contact.id }).delete();
    await trx('contact_methods').where({ id: contact.id }).delete();
    await recordAudit(trx, {
      organizationId: contact.organization_id,
      actor: opts.actor ?? SYSTEM_CLI,
      action: 'contact_method.delete',
      targetType: 'contact_method',
      targetId: contact.id,
      details: { user_id: contact.user_id, type: contact.type, label: contact.label, rules_removed: rules },
    });
    return { id: contact.id, removed: true, rules_removed: rules };
  });
}

/**
 * Points a contact method at a new address and enables it again, keeping its notification rules
 * (a Slack link made again: the same person, perhaps another Slack member id). Audited.
 */
export async function readdressContactMethod(trx: Knex, input: { id: string; address: string }, opts: ChangeOptions = {}): Promise<ContactMethodJson> {
  return reenableContactMethod(trx, input.id, { address: input.address }, opts, () => ({ readdressed: true }));
}

/**
 * Brings a contact method an import made in line with its source: a new address (verified, as the
 * source paged it, and enabled again) or label. Audited as `contact_method.update`.
 */
export async function reviseImportedContactMethod(
  trx: Knex,
  input: { id: string; address: string; label: string | null },
  opts: ChangeOptions = {},
): Promise<ContactMethodJson> {
  return reenableContactMethod(trx, input.id, { address: input.address, label: input.label }, opts, (row) => ({ label: row.label, source: 'import' }));
}

/** Sets a contact method's address (and label), verified and enabled again, audited as `contact_method.update` with `details`. */
async function reenableContactMethod(
  trx: Knex,
  id: string,
  change: { address: string; label?: string | null },
  opts: ChangeOptions,
  details: (row: ContactRow) => Record<string, unknown>,
): Promise<ContactMethodJson> {
  const [row] = (await trx('contact_methods')
    .where({ id })
    .update({ ...change, disabled_at: null, disabled_reason: null, verified_at: new Date() })
    .returning(CONTACT_COLUMNS)) as ContactRow[];
  if (!row) throw notFound(`contact method ${id} not found`);
  await recordAudit(trx, {
    organizationId: row.organization_id,
    actor: opts.actor ?? SYSTEM_CLI,
    action: 'contact_method.update',
    targetType: 'contact_method',
    targetId: row.id,
    details: { user_id: row.user_id, type: row.type, ...details(row) },
  });
  return contactJson(row);
}

/** A provider refused this contact method for good (bad number, unregistered device): it is not paged again until edited. */
export async function disableContactMethod(k: Knex, contactMethodId: string, reason: string): Promise<void> {
  await k('contact_methods')
    .where({ id: contactMethodId })
    .update({ disabled_at: new Date(), disabled_reason: reason.slice(0, 2000) });
}
