/**
 * What Slack's hooks share (docs/chat.md): how to act on incidents, the Slack app's settings,
 * the sealer of bot tokens, and the work done after an answer. Slack wants an answer within
 * 3 s, so slow work runs after it; tests wait for that work with `slackWorkSettled`.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger';
import type { PageResponseDeps } from '../../services/response';
import { findSlackInstallationsByTeam, openBotToken } from '../../services/chat/slack-installations';
import type { SlackActingMember } from '../../services/chat/slack-lookups';
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

/**
 * The first workspace connected to this Slack workspace (oldest installation first) in which the
 * Slack user is a verified member; undefined: a stranger everywhere (or nothing is connected).
 */
export async function slackUserActing(
  deps: { orm: MikroORM; apiUrl: string; sealer: Sealer },
  slackTeamId: string,
  slackUserId: string,
): Promise<SlackActing | undefined> {
  const installations = (await findSlackInstallationsByTeam(deps.orm, slackTeamId)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  for (const installation of installations) {
    const botToken = openBotToken(deps.sealer, installation);
    if (!botToken) continue;
    const member = await memberForSlackUser(deps, { organizationId: installation.organizationId, botToken, slackTeamId, slackUserId });
    if (member) return { organizationId: installation.organizationId, botToken, member };
  }
  return undefined;
}
