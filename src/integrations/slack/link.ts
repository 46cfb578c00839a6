/**
 * Linking a member's Slack account (docs/chat.md, "Slack DMs"): the workspace's Slack app looks
 * up the member's verified email (`users.lookupByEmail`) and the Slack member id it finds becomes
 * the member's `slack` contact method, written by the contact-method writer. Unlinking removes it
 * (and its notification rules).
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { normaliseAddress } from '../../domain/channels';
import { actingSlackEmail, slackUserFactsOf } from './acting-rules';
import { CHAT_MIN_PLAN, PLAN_LIMITS, type Plan } from '../../domain/plans';
import { slackClient, slackErrorCode } from './web-api';
import type { AuditActor } from '../../services/audit';
import { conflict, DomainError, forbidden } from '../../services/errors';
import { CONTACT_COLUMNS, contactJson, type ContactMethodJson, type ContactRow } from '../../services/paging/contact-rows';
import { memberOf, readdressContactMethod, removeContactMethod, writeContactMethod } from '../../services/paging/contacts';
import type { Sealer } from '../../services/sealing/seal';
import { findSlackInstallation, openBotToken } from './installations';

export interface SlackLinkDeps {
  orm: MikroORM;
  sealer: Sealer;
  /** SLACK_API_URL; undefined when the Slack app is not configured. */
  apiUrl: string | undefined;
}

/** Chat is a plan feature: FREE refuses (403 plan_limit_reached). */
async function requireChatPlan(orm: MikroORM, organizationId: string): Promise<void> {
  const org = (await knexOf(orm)('organizations').select('plan').where({ id: organizationId }).first()) as { plan: Plan } | undefined;
  if (org && !PLAN_LIMITS[org.plan].chat) throw forbidden(`the ${org.plan} plan does not include Slack (${CHAT_MIN_PLAN} and above do)`, 'plan_limit_reached');
}

/** The member's slack contact methods in the workspace, oldest first. */
async function slackMethodsOf(orm: MikroORM, organizationId: string, userId: string): Promise<ContactRow[]> {
  return knexOf(orm)('contact_methods')
    .select(CONTACT_COLUMNS)
    .where({ organization_id: organizationId, user_id: userId, type: 'slack' })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

/** Links the member's Slack account: their `slack` contact method, made or pointed at the Slack member found. */
export async function linkSlackAccount(deps: SlackLinkDeps, input: { organizationId: string; userId: string; actor: AuditActor }): Promise<ContactMethodJson> {
  await requireChatPlan(deps.orm, input.organizationId);
  const installation = deps.apiUrl ? await findSlackInstallation(deps.orm, input.organizationId) : undefined;
  const token = installation && openBotToken(deps.sealer, installation);
  if (!deps.apiUrl || !token) throw conflict('Slack is not connected to this workspace: an admin connects it first', 'slack_not_connected');
  const member = await memberOf(deps.orm, input.organizationId, input.userId);
  let slackUserId: string | undefined;
  try {
    const { user } = await slackClient(deps.apiUrl, token).users.lookupByEmail({ email: member.email });
    // As for clicks (docs/chat.md, "Who acts"): only a person of the installed team whose Slack email
    // is confirmed is the member; DMs of incidents must not go to whoever typed the address in.
    if (user && 'email' in actingSlackEmail(slackUserFactsOf(user), installation.slackTeamId)) slackUserId = user.id;
  } catch (err) {
    const code = slackErrorCode(err);
    if (code !== 'users_not_found') throw new DomainError('unavailable', `Slack could not look the email up (${code})`, 'slack_unavailable');
  }
  const address = slackUserId ? normaliseAddress('slack', slackUserId) : undefined;
  if (!address?.ok)
    throw new DomainError(
      'not_found',
      `no member of ${installation.slackTeamName} on Slack has the email ${member.email}, confirmed in Slack`,
      'slack_user_not_found',
    );
  return knexOf(deps.orm).transaction(async (trx) => {
    const existing = await slackMethodsOf(deps.orm, input.organizationId, input.userId);
    const same = existing.find((m) => m.address === address.address && m.disabled_at === null);
    if (same) return contactJson(same);
    if (existing[0]) return readdressContactMethod(trx, { id: existing[0].id, address: address.address }, { actor: input.actor });
    return writeContactMethod(
      trx,
      {
        organizationId: input.organizationId,
        userId: member.id,
        email: member.email,
        type: 'slack',
        address: address.address,
        label: installation.slackTeamName,
      },
      { actor: input.actor },
    );
  });
}

/** Unlinks: removes the member's slack contact methods and their notification rules; false when there was none. */
export async function unlinkSlackAccount(orm: MikroORM, input: { organizationId: string; userId: string; actor: AuditActor }): Promise<boolean> {
  const existing = await slackMethodsOf(orm, input.organizationId, input.userId);
  for (const method of existing) await removeContactMethod(orm, { id: method.id, organizationId: input.organizationId }, { actor: input.actor });
  return existing.length > 0;
}
