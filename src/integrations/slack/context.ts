/**
 * What Slack's hooks share (docs/chat.md): how to act on incidents, the Slack app's settings,
 * the sealer of bot tokens, and the work done after an answer. Slack wants an answer within
 * 3 s, so slow work runs after it; tests wait for that work with `slackWorkSettled`.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import type { Plan } from '../../domain/plans';
import type { Logger } from '../../logger';
import { planHasChat, workspacePlans } from '../../services/chat/chat-plan';
import type { PageResponseDeps } from '../../services/response';
import { findSlackInstallationsByTeam, openBotToken } from './installations';
import type { SlackActingMember } from './lookups';
import type { Sealer } from '../../services/sealing/seal';
import { memberForSlackUser } from './identity';

export interface SlackHookContext extends PageResponseDeps {
  appUrl: string;
  /** SLACK_API_URL, ending in a slash. */
  apiUrl: string;
  sealer: Sealer;
  logger?: Logger;
}

const inFlight = new Set<Promise<void>>();

/** Runs work after the answer was sent; its failure is logged (never its payload), not thrown. */
export function afterAnswer(ctx: Pick<SlackHookContext, 'logger'>, what: string, work: () => Promise<void>): void {
  const running = work()
    .catch((err: unknown) => ctx.logger?.error({ err: err instanceof Error ? err.message : String(err) }, `Slack ${what} failed after its answer`))
    .finally(() => inFlight.delete(running));
  inFlight.add(running);
}

/** Resolves once every piece of work started after an answer has finished (tests). */
export async function slackWorkSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}

/** The Klaxon workspace a Slack user acts in, with the bot token of its installation. */
export interface SlackActing {
  organizationId: string;
  botToken: string;
  member: SlackActingMember;
}

/** Who a Slack user is for a command: a member somewhere, a stranger, or nobody at all because no connected workspace has chat any more. */
export type SlackUserLookup = { kind: 'member'; acting: SlackActing } | { kind: 'stranger' } | { kind: 'no_chat'; plan: Plan };

/**
 * The first workspace connected to this Slack workspace (oldest installation first) whose plan
 * includes chat and in which the Slack user is a verified member (./identity.ts). Workspaces
 * without chat (downgraded with Slack still connected) act for nobody; when every connected
 * workspace is one of them, the answer says so (`no_chat`, the oldest one's plan).
 */
export async function slackUserActing(
  deps: { orm: MikroORM; apiUrl: string; sealer: Sealer },
  slackTeamId: string,
  slackUserId: string,
): Promise<SlackUserLookup> {
  const installations = (await findSlackInstallationsByTeam(deps.orm, slackTeamId)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const plans = await workspacePlans(
    knexOf(deps.orm),
    installations.map((i) => i.organizationId),
  );
  const withChat = installations.filter((i) => planHasChat(plans.get(i.organizationId)));
  if (installations.length > 0 && withChat.length === 0) return { kind: 'no_chat', plan: plans.get(installations[0].organizationId) ?? 'FREE' };
  for (const installation of withChat) {
    const botToken = openBotToken(deps.sealer, installation);
    if (!botToken) continue;
    const member = await memberForSlackUser(deps, {
      organizationId: installation.organizationId,
      botToken,
      slackTeamId: installation.slackTeamId,
      slackUserId,
    });
    if (member) return { kind: 'member', acting: { organizationId: installation.organizationId, botToken, member } };
  }
  return { kind: 'stranger' };
}
