/**
 * Who a Slack user is in Klaxon (docs/chat.md, "Acting from Slack"): the member of the workspace
 * whose verified email equals the **confirmed** email of a Slack person **of the installed team**
 * (`users.info` with the workspace's bot token; `actingSlackEmail` decides). What Slack says of a
 * person is kept in memory for five minutes; membership is read each time.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { actingSlackEmail, slackUserFactsOf, type SlackUserFacts } from './acting-rules';
import { verifiedMemberByEmail, type SlackActingMember } from './lookups';
import { slackClient } from './web-api';

const PROFILE_TTL_MS = 5 * 60_000;
const MAX_CACHED = 10_000;
const profiles = new Map<string, { facts: SlackUserFacts | null; until: number }>();

/** Forgets cached Slack profiles (tests that change a profile). */
export function forgetSlackProfiles(): void {
  profiles.clear();
}

/** What `users.info` says of a Slack user, or null (no such user). Failures (Slack unreachable) are null and not cached. */
export async function slackUserFacts(apiUrl: string, botToken: string, teamId: string, slackUserId: string): Promise<SlackUserFacts | null> {
  const key = `${teamId}:${slackUserId}`;
  const cached = profiles.get(key);
  if (cached && cached.until > Date.now()) return cached.facts;
  try {
    const { user } = await slackClient(apiUrl, botToken).users.info({ user: slackUserId });
    const facts = user ? slackUserFactsOf(user) : null;
    if (profiles.size >= MAX_CACHED) profiles.clear();
    profiles.set(key, { facts, until: Date.now() + PROFILE_TTL_MS });
    return facts;
  } catch {
    return null;
  }
}

/** The member a Slack user acts as in one workspace, or undefined: they are a stranger there. */
export async function memberForSlackUser(
  deps: { orm: MikroORM; apiUrl: string },
  input: { organizationId: string; botToken: string; slackTeamId: string; slackUserId: string },
): Promise<SlackActingMember | undefined> {
  const facts = await slackUserFacts(deps.apiUrl, input.botToken, input.slackTeamId, input.slackUserId);
  const acting = facts && actingSlackEmail(facts, input.slackTeamId);
  return acting && 'email' in acting ? verifiedMemberByEmail(deps.orm, input.organizationId, acting.email) : undefined;
}
