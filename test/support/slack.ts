import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Role } from '../../src/domain/roles';
import { slackSignature } from '../../src/integrations/slack/signature';
import { findSlackInstallation, saveSlackInstallation } from '../../src/integrations/slack/installations';
import { createSealer } from '../../src/services/sealing/seal';
import { SlackApiFake } from '../../src/integrations/slack/testing/wire-fake';
import { startTestStack, TEST_SECRET, type TestStack } from './stack';
import { addMember } from './workspace';

/** A test stack whose Slack app is the fake (SLACK_* variables), and the fake. */
export async function startSlackStack(env: Record<string, string> = {}): Promise<{ stack: TestStack; slack: SlackApiFake }> {
  const slack = await new SlackApiFake().start();
  try {
    return { stack: await startTestStack({ env: { ...slack.env(), ...env } }), slack };
  } catch (err) {
    await slack.stop();
    throw err;
  }
}

/** A Slack team id of its own, so each test's workspace is the only one connected to it. */
export const newSlackTeamId = () => `T${randomBytes(5).toString('hex').toUpperCase()}`;

/** A Slack member id the fake knows. */
export const newSlackUserId = () => `U${randomBytes(5).toString('hex').toUpperCase()}`;

/** Connects a workspace to the fake as the OAuth flow would: its installation, the fake's valid bot token. */
export async function connectSlack(orm: MikroORM, slack: SlackApiFake, organizationId: string, slackTeamId = newSlackTeamId()): Promise<string> {
  slack.tokens.add(slack.botToken);
  await saveSlackInstallation(orm, createSealer(TEST_SECRET), {
    organizationId,
    slackTeamId,
    slackTeamName: 'Klaxon Test Workspace',
    botUserId: slack.botUserId,
    botToken: slack.botToken,
    scopes: 'chat:write,commands,users:read,users:read.email,im:write',
    installedBy: null,
  });
  return slackTeamId;
}

/**
 * A member of the workspace (verified unless told otherwise; a MEMBER unless `role` says) with a Slack account of the same
 * email: a person of the workspace's installed Slack team with a confirmed email, unless told
 * otherwise (`slackTeamId`, `emailConfirmed`).
 */
export async function slackMember(
  orm: MikroORM,
  slack: SlackApiFake,
  organizationId: string,
  opts: { verified?: boolean; role?: Role; slackTeamId?: string; emailConfirmed?: boolean } = {},
) {
  const user = await addMember(orm, organizationId, opts.role ?? 'MEMBER', opts.verified !== false);
  const teamId = opts.slackTeamId ?? (await findSlackInstallation(orm, organizationId))?.slackTeamId ?? slack.teamId;
  const slackUser = slack.addUser({
    id: newSlackUserId(),
    email: user.email,
    name: `Slack ${user.email.slice(0, 6)}`,
    teamId,
    emailConfirmed: opts.emailConfirmed,
  });
  return { ...user, slackUserId: slackUser.id };
}

/** Posts a form to a Slack hook, signed as Slack signs (or as told: another secret, another time, a given signature). */
export async function postSigned(
  url: string,
  form: Record<string, string>,
  signingSecret: string,
  opts: { at?: number; signature?: string } = {},
): Promise<{ status: number; text: string; json: () => any }> {
  const body = new URLSearchParams(form).toString();
  const timestamp = String(opts.at ?? Math.floor(Date.now() / 1000));
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': opts.signature ?? slackSignature(signingSecret, timestamp, body),
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

/** A block_actions payload: one click on a button of Klaxon's message. */
export function clickPayload(input: { teamId: string; userId: string; actionId: string; value: string; responseUrl: string }): Record<string, string> {
  return {
    payload: JSON.stringify({
      type: 'block_actions',
      team: { id: input.teamId, domain: 'klaxon-test' },
      user: { id: input.userId, username: 'someone', team_id: input.teamId },
      api_app_id: 'A0KLAXON1',
      token: 'deprecated-verification-token',
      trigger_id: '123.456.abc',
      response_url: input.responseUrl,
      container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C0ALERTS01', is_ephemeral: false },
      channel: { id: 'C0ALERTS01', name: 'alerts' },
      actions: [
        {
          type: 'button',
          action_id: input.actionId,
          block_id: `klaxon_incident_${input.value}`,
          value: input.value,
          text: { type: 'plain_text', text: 'Button' },
          action_ts: '1700000001.000200',
        },
      ],
    }),
  };
}
