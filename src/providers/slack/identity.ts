/**
 * Who a Slack user is in Klaxon (docs/chat.md, "Acting from Slack"): the member of the workspace
 * whose verified email equals the email of their Slack profile (`users.info` with the workspace's
 * bot token). Profile emails are kept in memory for five minutes; membership is read each time.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { verifiedMemberByEmail, type SlackActingMember } from '../../services/chat/slack-lookups';
import { slackClient } from './web-api';

const PROFILE_TTL_MS = 5 * 60_000;
const MAX_CACHED = 10_000;
const profiles = new Map<string, { email: string | null; until: number }>();

/** Forgets cached Slack profiles (tests that change a profile). */
export function forgetSlackProfiles(): void {
  profiles.clear();
}

/** The email on a Slack user's profile, or null (no email, no such user, Slack unreachable). Failures are not cached. */
export async function slackProfileEmail(apiUrl: string, botToken: string, teamId: string, slackUserId: string): Promise<string | null> {
  const key = `${teamId}:${slackUserId}`;
  const cached = profiles.get(key);
  if (cached && cached.until > Date.now()) return cached.email;
  try {
    const answer = await slackClient(apiUrl, botToken).users.info({ user: slackUserId });
    const email = answer.user && !answer.user.deleted && !answer.user.is_bot ? (answer.user.profile?.email ?? null) : null;
    if (profiles.size >= MAX_CACHED) profiles.clear();
    profiles.set(key, { email, until: Date.now() + PROFILE_TTL_MS });
    return email;
  } catch {
    return null;
  }
}

/** The member a Slack user acts as in one workspace, or undefined: they are a stranger there. */
export async function memberForSlackUser(
  deps: { orm: MikroORM; apiUrl: string },
  input: { organizationId: string; botToken: string; slackTeamId: string; slackUserId: string },
): Promise<SlackActingMember | undefined> {
  const email = await slackProfileEmail(deps.apiUrl, input.botToken, input.slackTeamId, input.slackUserId);
  return email ? verifiedMemberByEmail(deps.orm, input.organizationId, email) : undefined;
}
