import { knexOf } from '../../src/db/knex';
import { SLACK_ACTION_IDS } from '../../src/integrations/slack/messages/blocks';
import { slackSignature } from '../../src/integrations/slack/signature';
import { slackSettings } from '../../src/integrations/slack/config';
import type { SlackApiFake } from '../../src/integrations/slack/testing/wire-fake';
import { valuesRun } from '../harness/load';
import type { PagingBench } from './bench';

/** Clicks per second and how many incidents are clicked. */
const RATE = 10;
const CLICKS = 100;
const SLACK_USER = 'U0BENCHACK1';

/**
 * Click → incident acknowledged: the Slack phase's incidents, still TRIGGERED, get an
 * Acknowledge click each at a steady 10/s — a `block_actions` payload signed as Slack signs it,
 * POSTed to /hooks/slack/interactions as the Slack user whose profile email is the responder's
 * (looked up with `users.info` at the Web API fake). Per click, from sending the request to the
 * incident's `acknowledged_at` (the store's clock, on this machine); also the hook's answer time
 * (Slack's 3-second rule).
 */
export async function slackClickLatency(p: PagingBench, slack: SlackApiFake, ids: string[], responderEmail: string, slackTeamId: string): Promise<void> {
  const { b } = p;
  const phase = `Slack clicks: Acknowledge → incident acknowledged, ${RATE} clicks/s`;
  const signingSecret = slackSettings(b.stack.config.notify)?.signingSecret;
  if (!signingSecret) throw new Error('the bench stack has no Slack app configured');
  if (!slack.users.some((u) => u.id === SLACK_USER)) slack.addUser({ id: SLACK_USER, email: responderEmail, name: 'Bench responder' });
  const open = (await knexOf(b.stack.orm)('incidents').whereIn('id', ids).where({ status: 'TRIGGERED' }).select('id')) as Array<{ id: string }>;
  const targets = open.slice(0, CLICKS).map((i) => i.id);
  b.say(`Acknowledge clicks from Slack at ${RATE}/s on ${targets.length} incidents`);
  const sentAt = new Map<string, number>();
  const answers: number[] = [];
  let refused = 0;
  const started = Date.now();
  const clicks: Promise<void>[] = [];
  for (const [n, id] of targets.entries()) {
    const due = started + (n * 1000) / RATE;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    clicks.push(
      (async () => {
        const body = new URLSearchParams({ payload: JSON.stringify(clickPayload(slackTeamId, id, slack.responseUrl())) }).toString();
        const timestamp = String(Math.floor(Date.now() / 1000));
        const at = Date.now();
        sentAt.set(id, at);
        const res = await fetch(`${b.stack.appUrl}/hooks/slack/interactions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-slack-request-timestamp': timestamp,
            'x-slack-signature': slackSignature(signingSecret, timestamp, body),
          },
          body,
        });
        await res.arrayBuffer();
        answers.push(Date.now() - at);
        if (res.status !== 200) refused++;
      })(),
    );
  }
  await Promise.all(clicks);
  const durationS = (Date.now() - started) / 1000;
  const acked = async () =>
    (await knexOf(b.stack.orm)('incidents').whereIn('id', targets).whereNotNull('acknowledged_at').select('id', 'acknowledged_at')) as Array<{
      id: string;
      acknowledged_at: Date;
    }>;
  const deadline = Date.now() + 60_000;
  let rows = await acked();
  while (rows.length < targets.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    rows = await acked();
  }
  const latencies = rows.map((r) => Math.max(0, new Date(r.acknowledged_at).getTime() - sentAt.get(r.id)!));
  const like = { durationS, concurrency: 1 };
  b.out.figures.push({
    key: `slack_click_${RATE}_to_acknowledged`,
    label: `Slack Acknowledge click → incident acknowledged, ${RATE} clicks/s`,
    run: valuesRun(latencies, like, { not_acknowledged: targets.length - rows.length, refused }),
  });
  b.out.figures.push({
    key: `slack_click_${RATE}_answered`,
    label: `Slack interaction answered (Slack's 3 s limit), ${RATE} clicks/s`,
    run: valuesRun(answers, like),
  });
  b.phase(phase, { clicks: targets.length, acknowledged: rows.length, refused });
  b.out.notes.push(
    `Slack clicks: ${targets.length} Acknowledge clicks at ${RATE}/s on the Slack phase's open incidents, each a signed block_actions payload POSTed to /hooks/slack/interactions as a Slack user mapped to the responder by email (users.info at the fake); click → acknowledged is from sending the request to the incident's acknowledged_at. ${rows.length} of ${targets.length} acknowledged.`,
  );
}

/** A `block_actions` payload: one click on the Acknowledge button of an incident's message. */
function clickPayload(teamId: string, incidentId: string, responseUrl: string) {
  return {
    type: 'block_actions',
    team: { id: teamId, domain: 'klaxon-bench' },
    user: { id: SLACK_USER, username: 'bench', team_id: teamId },
    api_app_id: 'A0KLAXON1',
    trigger_id: '1.2.bench',
    response_url: responseUrl,
    container: { type: 'message', channel_id: 'C0BENCH001', is_ephemeral: false },
    channel: { id: 'C0BENCH001', name: 'bench-incidents' },
    actions: [
      {
        type: 'button',
        action_id: SLACK_ACTION_IDS.acknowledge,
        block_id: `klaxon_incident_${incidentId}`,
        value: incidentId,
        text: { type: 'plain_text', text: 'Acknowledge' },
        action_ts: String(Date.now() / 1000),
      },
    ],
  };
}
