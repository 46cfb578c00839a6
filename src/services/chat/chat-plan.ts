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

/** The plans of some workspaces, by id (Slack checks each connected workspace's before acting). */
export async function workspacePlans(db: Knex, organizationIds: string[]): Promise<Map<string, Plan>> {
  if (organizationIds.length === 0) return new Map();
  const rows = await db('organizations').select('id', 'plan').whereIn('id', organizationIds);
  return new Map(rows.map((r: { id: string; plan: Plan }) => [r.id, r.plan]));
}

/** True when the plan includes Slack and Microsoft Teams. */
export const planHasChat = (plan: Plan | undefined): boolean => plan !== undefined && PLAN_LIMITS[plan].chat;
