/**
 * The `/klaxon` slash command (docs/chat.md, "Slash command"): who is on call, the open
 * incidents, acknowledging or resolving incident N, as the member the Slack user is (the same
 * mapping as button clicks). Answered at once, ephemeral; an act slower than Slack's 3 s is
 * answered "working on it" and its outcome follows on the response_url.
 */
import { z } from 'zod';
import { incidentByNumber, memberNames, openIncidents } from './lookups';
import { listSchedules, onCall } from '../../services/paging';
import { actAsSlackMember, chatPlanText, COULD_NOT, linkAccountText } from './acting';
import { MAX_COMMAND_TEXT, parseSlackCommand, SLACK_COMMAND_USAGE } from './command-text';
import { afterAnswer, slackUserActing, type SlackActing, type SlackHookContext } from './context';
import { escapeMrkdwn } from './messages/blocks';
import { ephemeral, postToResponseUrl } from './response-url';

/** The form fields of a slash command Klaxon reads. */
export const CommandForm = z.object({
  team_id: z.string().min(1).max(64),
  user_id: z.string().min(1).max(64),
  // Longer texts are read as unknown (help) by the parser, which caps what it looks at.
  text: z
    .string()
    .max(8 * MAX_COMMAND_TEXT)
    .default(''),
  response_url: z.string().max(2000).optional(),
});
export type CommandForm = z.infer<typeof CommandForm>;

export interface CommandAnswer {
  response_type: 'ephemeral';
  text: string;
}

/** How long an act may take before the answer goes without it (Slack waits 3 s). */
const SYNC_ACT_MS = 2_000;
const MAX_LISTED = 10;
const MAX_SCHEDULES = 10;

const answer = (text: string): CommandAnswer => ({ response_type: 'ephemeral', text });

export async function answerCommand(ctx: SlackHookContext, form: CommandForm): Promise<CommandAnswer> {
  const command = parseSlackCommand(form.text);
  if (command.kind === 'help')
    return answer(command.unknown ? `Klaxon does not know \`${escapeMrkdwn(command.unknown)}\`.\n${SLACK_COMMAND_USAGE}` : SLACK_COMMAND_USAGE);
  const found = await slackUserActing(ctx, form.team_id, form.user_id);
  if (found.kind === 'no_chat') return answer(chatPlanText(found.plan));
  if (found.kind === 'stranger') return answer(linkAccountText(ctx.appUrl));
  const { acting } = found;
  switch (command.kind) {
    case 'oncall':
      return answer(await whoIsOnCall(ctx, acting, command.schedule));
    case 'incidents':
      return answer(await listOpen(ctx, acting));
    case 'act':
      return act(ctx, acting, form, command.action, command.number);
  }
}

async function whoIsOnCall(ctx: SlackHookContext, acting: SlackActing, name: string | null): Promise<string> {
  const all = await listSchedules(ctx.orm, acting.organizationId);
  const wanted = name === null ? all : all.filter((s) => s.name.toLowerCase() === name.toLowerCase());
  if (name !== null && wanted.length === 0)
    return `No schedule is called “${escapeMrkdwn(name)}”. Schedules: ${all.map((s) => escapeMrkdwn(s.name)).join(', ') || 'none'}.`;
  if (wanted.length === 0) return 'This workspace has no on-call schedules.';
  const now = new Date();
  const lines = await Promise.all(
    wanted.slice(0, MAX_SCHEDULES).map(async (s) => {
      const { users } = await onCall(ctx.orm, { scheduleId: s.id, at: now });
      const names = await memberNames(
        ctx.orm,
        users.map((u) => u.id),
      );
      const who = users.map((u) => escapeMrkdwn(names.get(u.id) ?? u.email)).join(', ') || 'nobody';
      return `• *${escapeMrkdwn(s.name)}*: ${who}`;
    }),
  );
  return [`On call now:`, ...lines, ...(wanted.length > MAX_SCHEDULES ? [`…and ${wanted.length - MAX_SCHEDULES} more schedules`] : [])].join('\n');
}

async function listOpen(ctx: SlackHookContext, acting: SlackActing): Promise<string> {
  const open = await openIncidents(ctx.orm, acting.organizationId, MAX_LISTED);
  if (open.length === 0) return 'No open incidents.';
  return [
    `Open incidents (newest first, up to ${MAX_LISTED}):`,
    ...open.map((i) => `• <${ctx.appUrl}/incidents/${i.id}|#${i.number}> ${escapeMrkdwn(i.title.slice(0, 200))} — ${i.status.toLowerCase()} (${i.severity})`),
  ].join('\n');
}

async function act(ctx: SlackHookContext, acting: SlackActing, form: CommandForm, action: 'acknowledge' | 'resolve', number: number): Promise<CommandAnswer> {
  const incident = await incidentByNumber(ctx.orm, acting.organizationId, number);
  if (!incident) return answer(`There is no incident #${number} in this workspace.`);
  const work = actAsSlackMember(ctx, { organizationId: acting.organizationId, incidentId: incident.id, action, member: acting.member }).catch(
    (err: unknown) => {
      // Postgres or Temporal away: nothing changed, and the user may send it again.
      ctx.logger?.error({ err: err instanceof Error ? err.message : String(err) }, 'a /klaxon command could not act');
      return COULD_NOT;
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, SYNC_ACT_MS, undefined)));
  const quick = await Promise.race([work, slow]).finally(() => clearTimeout(timer));
  if (quick !== undefined) return answer(quick);
  afterAnswer(ctx, 'command', async () => {
    await postToResponseUrl(form.response_url, ctx.apiUrl, ephemeral(await work));
  });
  return answer(`Working on incident #${number}…`);
}
