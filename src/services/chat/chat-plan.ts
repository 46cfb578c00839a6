/** The plan's gate on chat (docs/chat.md): Slack and Teams come with CHAT_MIN_PLAN and above. */
import type { Knex } from '@mikro-orm/postgresql';
import { CHAT_MIN_PLAN, PLAN_LIMITS, type Plan } from '../../domain/plans';
import { forbidden, notFound } from '../errors';

/** What a refused workspace is told (403 `plan_limit_reached`). */
export const chatPlanRefusal = (plan: Plan): string => `the ${plan} plan does not include Slack and Microsoft Teams (${CHAT_MIN_PLAN} and above do)`;

/** Refuses (403 `plan_limit_reached`) a workspace whose plan has no chat. */
export async function assertChatPlan(db: Knex, organizationId: string): Promise<void> {
  const org = await db('organizations').select('plan').where({ id: organizationId }).first<{ plan: Plan } | undefined>();
  if (!org) throw notFound(`organization ${organizationId} not found`);
  if (!PLAN_LIMITS[org.plan].chat) throw forbidden(chatPlanRefusal(org.plan), 'plan_limit_reached');
}
