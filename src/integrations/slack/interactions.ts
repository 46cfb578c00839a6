/**
 * Button clicks on Klaxon's Slack messages (docs/chat.md, "Acting from Slack"): a `block_actions`
 * payload names the button (action id) and the incident (its value). The incident must belong to
 * a Klaxon workspace connected to the payload's Slack workspace whose plan includes chat, and the
 * clicking Slack user acts as the member with their verified email, if Slack vouches for them
 * (./identity.ts); anyone else is told to link their account, and nothing changes. Answers go to
 * the payload's `response_url`, ephemeral.
 */
import { z } from 'zod';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { planHasChat, workspacePlans } from '../../services/chat/chat-plan';
import { findSlackInstallationsByTeam, openBotToken } from './installations';
import { incidentOfWorkspaces } from './lookups';
import { actAsSlackMember, chatPlanText, COULD_NOT, linkAccountText } from './acting';
import type { SlackHookContext } from './context';
import { memberForSlackUser } from './identity';
import { slackActionOf, type SlackAction } from './messages/blocks';
import { ephemeral, postToResponseUrl } from './response-url';

const SlackId = z.string().min(1).max(64);

/** The fields of an interaction payload Klaxon reads; the rest is ignored. */
export const InteractionPayload = z.object({
  type: z.string().max(64),
  team: z.object({ id: SlackId }).nullish(),
  user: z.object({ id: SlackId }).nullish(),
  response_url: z.string().max(2000).optional(),
  actions: z
    .array(z.object({ action_id: z.string().max(255), value: z.string().max(2000).optional() }))
    .max(25)
    .optional(),
});
export type InteractionPayload = z.infer<typeof InteractionPayload>;

/** One click Klaxon knows: the action and the incident id it names. */
export interface RequestedAction {
  action: SlackAction;
  incidentId: string;
}

/** The clicks of a payload that name Klaxon's buttons; unknown action ids are ignored. */
export function requestedActions(payload: InteractionPayload): RequestedAction[] {
  if (payload.type !== 'block_actions' || !payload.team || !payload.user) return [];
  return (payload.actions ?? []).flatMap((a) => {
    const action = slackActionOf(a.action_id);
    return action && a.value !== undefined ? [{ action, incidentId: a.value }] : [];
  });
}

/** Does what the clicks ask, one after the other, answering each on the response_url. */
export async function runInteraction(ctx: SlackHookContext, payload: InteractionPayload, actions: RequestedAction[]): Promise<void> {
  for (const requested of actions) {
    let answer: string;
    try {
      answer = await answerClick(ctx, payload.team!.id, payload.user!.id, requested);
    } catch (err) {
      // Postgres or Temporal away: the click changed nothing, and the user may click again.
      ctx.logger?.error({ err: err instanceof Error ? err.message : String(err) }, 'a Slack click could not be acted on');
      answer = COULD_NOT;
    }
    await postToResponseUrl(payload.response_url, ctx.apiUrl, ephemeral(answer));
  }
}

async function answerClick(ctx: SlackHookContext, slackTeamId: string, slackUserId: string, { action, incidentId }: RequestedAction): Promise<string> {
  if (!isUuid(incidentId)) return 'This button names no Klaxon incident.';
  const installations = await findSlackInstallationsByTeam(ctx.orm, slackTeamId);
  const incident = await incidentOfWorkspaces(
    ctx.orm,
    incidentId,
    installations.map((i) => i.organizationId),
  );
  if (!incident) return 'This incident is not in a Klaxon workspace connected to this Slack workspace.';
  const installation = installations.find((i) => i.organizationId === incident.organization_id)!;
  // A workspace downgraded below chat with Slack still connected: its buttons act no more.
  const plan = (await workspacePlans(knexOf(ctx.orm), [incident.organization_id])).get(incident.organization_id);
  if (!planHasChat(plan)) return chatPlanText(plan ?? 'FREE');
  const botToken = openBotToken(ctx.sealer, installation);
  if (!botToken) return 'Klaxon cannot use its Slack connection any more: ask an admin to reconnect Slack.';
  const member = await memberForSlackUser(ctx, {
    organizationId: incident.organization_id,
    botToken,
    slackTeamId: installation.slackTeamId,
    slackUserId,
  });
  if (!member) return linkAccountText(ctx.appUrl);
  return actAsSlackMember(ctx, { organizationId: incident.organization_id, incidentId: incident.id, action, member });
}
