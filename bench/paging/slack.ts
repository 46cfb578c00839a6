import { SlackApiFake } from '../../src/integrations/slack/testing/wire-fake';
import { knexOf } from '../../src/db/knex';
import { setServiceChat } from '../../src/services/chat/service-chat';
import { saveSlackInstallation } from '../../src/integrations/slack/installations';
import { createSealer } from '../../src/services/sealing/seal';
import { resolveSecret } from '../../src/stack/secret';
import { valuesRun } from '../harness/load';
import type { PagingBench } from './bench';
import { pagingService, smsResponder } from './seed';
import { slackClickLatency } from './slack-click';

/** The rate and length of the Slack phase. */
const RATE = 10;
const DURATION_S = 30;
const CHANNEL = { id: 'C0BENCH001', name: 'bench-incidents' };

/**
 * Incident opened → its Slack message posted: new incidents at a steady 10/s for 30 s, each
 * paging one responder by SMS, on a service whose chat settings name a channel of the Slack Web
 * API fake (src/integrations/slack/testing/wire-fake.ts, in this process, the real `@slack/web-api` client talking to
 * it); per incident, from its `created_at` (the store's clock, with its `incident.triggered`
 * event) to the fake receiving the `chat.postMessage` that posts it. Then the click phase
 * (slack-click.ts) acknowledges them from Slack.
 */
export async function slackLatency(p: PagingBench, slack: SlackApiFake): Promise<string[]> {
  const { b } = p;
  const phase = `Slack messages: incident opened → posted, ${RATE} incidents/s`;
  const { orm } = b.stack;
  const responder = await smsResponder(orm, b.ws);
  const svc = await pagingService(orm, b.ws, { name: `slack ${RATE}/s`, ingestBaseUrl: b.stack.ingestUrl, steps: [responder], delays: [60] });
  const sealer = createSealer(resolveSecret(b.stack.config));
  slack.tokens.add(slack.botToken);
  if (!slack.channels.some((c) => c.id === CHANNEL.id)) slack.channels.push(CHANNEL);
  await saveSlackInstallation(orm, sealer, {
    organizationId: b.ws.organizationId,
    slackTeamId: slack.teamId,
    slackTeamName: slack.teamName,
    botUserId: slack.botUserId,
    botToken: slack.botToken,
    scopes: 'chat:write',
    installedBy: null,
  });
  await setServiceChat(orm, sealer, { organizationId: b.ws.organizationId, serviceId: svc.serviceId }, { slackChannel: CHANNEL });
  await b.drain(phase);
  b.say(`New incidents at a steady ${RATE}/s for ${DURATION_S} s, each posted in a Slack channel (the Web API fake)`);
  const { run } = await p.openIncidents(svc.url, b.prefix(`slack-${RATE}`), { rate: RATE, durationS: DURATION_S, maxInFlight: 32 });
  const ids = (await p.probe.incidents(svc.sourceId)).map((i) => i.id);
  const postedAt = () => {
    const at = new Map<string, number>();
    for (const call of slack.callsOf('chat.postMessage')) {
      if (call.args.channel !== CHANNEL.id || call.args.thread_ts) continue;
      const blocks = String(call.args.blocks ?? '');
      const id = ids.find((i) => blocks.includes(i));
      if (id && !at.has(id)) at.set(id, call.at);
    }
    return at;
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && postedAt().size < ids.length) await new Promise((r) => setTimeout(r, 200));
  const posted = postedAt();
  const opened = (await knexOf(orm)('incidents').whereIn('id', ids).select('id', 'created_at')) as Array<{ id: string; created_at: Date }>;
  const latencies = opened.flatMap((i) => (posted.has(i.id) ? [Math.max(0, posted.get(i.id)! - new Date(i.created_at).getTime())] : []));
  const duplicates = slack.postsIn(CHANNEL.id).length - posted.size;
  b.out.figures.push({
    key: `slack_${RATE}_opened_to_posted`,
    label: `incident opened → Slack message posted, ${RATE} incidents/s`,
    run: valuesRun(latencies, run, { not_posted: ids.length - posted.size, duplicate_posts: Math.max(0, duplicates) }),
  });
  b.phase(phase, { incidents: ids.length, posted: posted.size, slack_calls: slack.calls.length });
  b.out.notes.push(
    `Slack messages: ${RATE} new incidents/s for ${DURATION_S} s, each paging by SMS, on a service posting in a channel of the Slack Web API fake (in the bench process, the real @slack/web-api client); opened → posted is from the incident's created_at (written with its incident.triggered event) to the fake receiving the chat.postMessage. ${posted.size} of ${ids.length} posted, ${slack.calls.length} Slack calls in all (updates and replies as pages were delivered included).`,
  );
  // Then click → acknowledged on those incidents, as the responder acting from Slack.
  await slackClickLatency(p, slack, ids, responder.email, slack.teamId);
  return ids;
}
