/**
 * What a Slack member's click or command does to an incident (docs/chat.md, "Acting from
 * Slack"): the dashboard's own service calls (a Workflow Update, or the escalate-now signal), as
 * the member, `via: slack`, so the timeline reads "via Slack by <member>". Answers in words.
 */
import { once, type PageResponseDeps } from '../../services/response';
import { escalateIncidentNow, getIncident, transitionIncident } from '../../services/incident';
import { lastMovedBy, lastSeqOf, type SlackActingMember } from './lookups';
import { DomainError } from '../../services/errors';
import { CHAT_MIN_PLAN, type Plan } from '../../domain/plans';
import type { Actor } from '../../contracts/workflows';
import type { SlackAction } from './messages/blocks';

/**
 * What a stranger is told (no confirmed Slack email of the installed team that is a verified
 * member's email); nothing changes. It does not say which condition failed.
 */
export const linkAccountText = (appUrl: string): string =>
  `Link your Slack account to act from Slack: Klaxon acts only for people of this Slack workspace whose confirmed Slack email is the verified email of their Klaxon login in the connected workspace (${appUrl}).`;

/** What anyone is told when the connected workspace's plan no longer includes chat (a downgrade); nothing changes. */
export const chatPlanText = (plan: Plan): string =>
  `Slack actions need the ${CHAT_MIN_PLAN} plan or above, and this Klaxon workspace is on ${plan}: nothing changed. Use the Klaxon dashboard, or ask a Billing Owner to change the plan.`;

/** What Slack hears when Postgres or Temporal cannot be reached: nothing changed. */
export const COULD_NOT = 'Klaxon could not do that just now: nothing changed, try again in a moment.';

const DONE: Record<SlackAction, string> = { acknowledge: 'acknowledged', resolve: 'resolved', escalate: 'escalated' };

/** Statuses in which an action has already happened (a second click changes nothing). */
const ALREADY: Record<Exclude<SlackAction, 'escalate'>, string[]> = {
  acknowledge: ['ACKNOWLEDGED', 'INVESTIGATING', 'RESOLVED', 'CLOSED'],
  resolve: ['RESOLVED', 'CLOSED'],
};

/** Acts on an incident of the member's workspace; the answer says what happened (or why nothing did). */
export async function actAsSlackMember(
  deps: PageResponseDeps,
  input: { organizationId: string; incidentId: string; action: SlackAction; member: SlackActingMember },
): Promise<string> {
  const actor: Actor = { type: 'user', id: input.member.id, via: 'slack' };
  const incident = await getIncident(deps, input.organizationId, input.incidentId);
  const label = `Incident #${incident.number}`;
  // A Stakeholder reads incidents but acts on none, from Slack as from the dashboard.
  if (input.member.role === 'STAKEHOLDER') return `${label}: a Stakeholder reads incidents but does not acknowledge, resolve or escalate them.`;
  try {
    if (input.action === 'escalate') {
      // A double click escalates one step: the key holds until the incident's timeline moves on.
      const key = `slack-escalate:${incident.id}:${await lastSeqOf(deps.orm, incident.id)}`;
      const seen = { done: false, message: `${label}: the next step is already being paged.` };
      const answer = await once(deps.orm, key, seen, async () => {
        await escalateIncidentNow(deps, { organizationId: input.organizationId, incidentId: incident.id, actor });
        return { done: true, message: `${label}: escalating to the next step now.` };
      });
      return answer.message;
    }
    if (ALREADY[input.action].includes(incident.status)) {
      const moved = await lastMovedBy(deps.orm, incident.id, incident.status);
      return `${label} is already ${incident.status.toLowerCase()}${moved?.who ? ` by ${moved.who}` : ''}.`;
    }
    const after = await transitionIncident(deps, { organizationId: input.organizationId, incidentId: incident.id, operation: input.action, actor });
    return `${label} ${DONE[input.action]} by ${input.member.name ?? input.member.email} (now ${after.status.toLowerCase()}).`;
  } catch (err) {
    if (err instanceof DomainError && (err.kind === 'conflict' || err.kind === 'not_found')) return `${label}: ${err.message}.`;
    throw err;
  }
}
