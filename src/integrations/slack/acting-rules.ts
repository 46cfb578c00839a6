/**
 * Whom a Slack click or command may act for (docs/chat.md, "Who acts"): a person of the Slack
 * workspace the app was installed in, whose Slack email is confirmed. Anyone else's profile
 * email proves nothing: a guest from another team in a shared channel, or someone who typed a
 * colleague's address without confirming it, must not act as that colleague.
 */

/** What Klaxon reads of a Slack user (`users.info`'s `user`). */
export interface SlackUserFacts {
  /** `user.team_id`: the Slack workspace the person belongs to. */
  teamId: string | null;
  /** `user.profile.email` (needs `users:read.email`). */
  email: string | null;
  /** `user.is_email_confirmed`. */
  emailConfirmed: boolean;
  /** `user.deleted` or `user.is_bot`: nobody to act for. */
  inactive: boolean;
}

/** The fields of a Slack user object (`users.info`, `users.lookupByEmail`) that decide. */
export interface SlackUserObject {
  team_id?: string;
  is_email_confirmed?: boolean;
  deleted?: boolean;
  is_bot?: boolean;
  profile?: { email?: string };
}

/** What Slack's user object says, as `actingSlackEmail` reads it (a missing flag counts against the person). */
export const slackUserFactsOf = (user: SlackUserObject): SlackUserFacts => ({
  teamId: user.team_id ?? null,
  email: user.profile?.email ?? null,
  emailConfirmed: user.is_email_confirmed === true,
  inactive: user.deleted === true || user.is_bot === true,
});

/** Why a Slack user acts for nobody. */
export type NotActingReason = 'inactive' | 'other_team' | 'no_email' | 'unconfirmed_email';

/** The email a Slack user may act under in the installation of `installedTeamId`, or why none. */
export function actingSlackEmail(user: SlackUserFacts, installedTeamId: string): { email: string } | { reason: NotActingReason } {
  if (user.inactive) return { reason: 'inactive' };
  if (user.teamId !== installedTeamId) return { reason: 'other_team' };
  if (!user.email) return { reason: 'no_email' };
  if (!user.emailConfirmed) return { reason: 'unconfirmed_email' };
  return { email: user.email };
}
