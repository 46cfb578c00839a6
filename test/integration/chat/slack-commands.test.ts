import { randomUUID } from 'node:crypto';
import { createSchedule } from '../../../src/services/paging/schedules';
import { slackWorkSettled } from '../../../src/integrations/slack';
import type { SlackApiFake } from '../../../src/integrations/slack/testing/wire-fake';
import { notificationsOf, pagingService, responder, statusOf, timelineOf, trigger } from '../../support/paging';
import { connectSlack, newSlackUserId, postSigned, slackMember, startSlackStack } from '../../support/slack';
import type { TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';
import { knexOf } from '../../../src/db/knex';

let stack: TestStack;
let slack: SlackApiFake;

beforeAll(async () => {
  ({ stack, slack } = await startSlackStack());
});

afterAll(() => Promise.all([stack?.stop(), slack?.stop()]));

/** A connected workspace with one paging service, and a member who uses Slack. */
async function connectedWorkspace() {
  const ws = await seedWorkspace(stack.orm);
  const teamId = await connectSlack(stack.orm, slack, ws.organizationId);
  const paged = await responder(stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 3600, targets: [{ type: 'user', id: paged.id }] }] }, stack.urls.ingest);
  const member = await slackMember(stack.orm, slack, ws.organizationId);
  return { ws, teamId, ingestUrl, member, paged };
}

async function openIncident(ingestUrl: string, title = `Disk full ${randomUUID().slice(0, 6)}`) {
  const id = await trigger(ingestUrl, title);
  await waitFor(async () => (await notificationsOf(stack.orm, id)).length > 0, 20_000, 'the first page');
  const { number } = await knexOf(stack.orm)('incidents').select('number').where({ id }).first();
  return { id, number: Number(number), title };
}

/** `/klaxon <text>` as Slack posts it, signed; the synchronous answer, and whatever followed on the response_url. */
async function command(teamId: string, userId: string, text: string, opts: { signature?: string; at?: number } = {}) {
  const responseUrl = slack.responseUrl();
  const started = Date.now();
  const res = await postSigned(
    `${stack.urls.app}/hooks/slack/commands`,
    {
      token: 'deprecated',
      team_id: teamId,
      team_domain: 'klaxon-test',
      channel_id: 'C0ALERTS01',
      channel_name: 'alerts',
      user_id: userId,
      user_name: 'someone',
      command: '/klaxon',
      text,
      api_app_id: 'A0KLAXON1',
      response_url: responseUrl,
      trigger_id: '1.2.3',
    },
    slack.signingSecret,
    opts,
  );
  const tookMs = Date.now() - started;
  await slackWorkSettled();
  const later = slack.responsesTo(responseUrl).map((r) => String(r.text));
  return {
    res,
    tookMs,
    body: res.status === 200 ? (res.json() as { response_type: string; text: string }) : undefined,
    all: () => [res.text, ...later].join('\n'),
  };
}

describe('/klaxon', () => {
  it('when a member asks for `incidents`, then the open incidents come back ephemeral, with numbers, status and links; resolved ones are left out', async () => {
    const { teamId, ingestUrl, member } = await connectedWorkspace();
    const a = await openIncident(ingestUrl, 'Checkout is slow');
    const b = await openIncident(ingestUrl, 'Queue <backlog> & growing');
    const { res, body, tookMs } = await command(teamId, member.slackUserId, 'incidents');
    expect(res.status).toBe(200);
    expect(tookMs).toBeLessThan(3000);
    expect(body!.response_type).toBe('ephemeral');
    expect(body!.text).toContain(`<${stack.urls.app}/incidents/${a.id}|#${a.number}> Checkout is slow — triggered (CRITICAL)`);
    expect(body!.text).toContain(`|#${b.number}> Queue &lt;backlog&gt; &amp; growing`);
    await command(teamId, member.slackUserId, `resolve ${a.number}`);
    expect((await command(teamId, member.slackUserId, 'incidents')).body!.text).not.toContain(`|#${a.number}>`);
  });

  it('when a member asks `oncall`, then each schedule says who is on call now; `oncall <name>` only that one', async () => {
    const { ws, teamId, member, paged } = await connectedWorkspace();
    const layers = (users: string[]) => [{ name: 'primary', users, rotation: { unit: 'days', length: 1 }, handoff_time: '09:00', start: '2026-01-01' }];
    await createSchedule(stack.orm, { organizationId: ws.organizationId, name: 'Primary', timeZone: 'UTC', layers: layers([paged.id]) });
    await createSchedule(stack.orm, { organizationId: ws.organizationId, name: 'Database', timeZone: 'UTC', layers: layers([member.id]) });
    const all = await command(teamId, member.slackUserId, 'oncall');
    expect(all.body!.text).toContain(`*Primary*: ${paged.email}`);
    expect(all.body!.text).toContain(`*Database*: ${member.email}`);
    const one = await command(teamId, member.slackUserId, 'oncall database');
    expect(one.body!.text).toContain(`*Database*: ${member.email}`);
    expect(one.body!.text).not.toContain('Primary*');
    expect((await command(teamId, member.slackUserId, 'oncall Nope')).body!.text).toMatch(/No schedule is called/);
  });

  it('when a member sends `ack N` then `resolve N`, then incident N is acknowledged then resolved via Slack by them', async () => {
    const { teamId, ingestUrl, member } = await connectedWorkspace();
    const incident = await openIncident(ingestUrl);
    const ack = await command(teamId, member.slackUserId, `ack ${incident.number}`);
    expect(ack.res.status).toBe(200);
    expect(ack.tookMs).toBeLessThan(3000);
    expect(ack.all()).toMatch(new RegExp(`Incident #${incident.number} acknowledged by`));
    await waitFor(async () => (await statusOf(stack.orm, incident.id)) === 'ACKNOWLEDGED', 10_000, 'acknowledged');
    const resolve = await command(teamId, member.slackUserId, `resolve #${incident.number}`);
    expect(resolve.all()).toMatch(/resolved by/);
    await waitFor(async () => (await statusOf(stack.orm, incident.id)) === 'RESOLVED', 10_000, 'resolved');
    const moves = (await timelineOf(stack.orm, incident.id)).filter((e) => e.type === 'status_change');
    expect(moves.map((e) => [e.to_status, e.actor_id, e.via])).toEqual([
      ['ACKNOWLEDGED', member.id, 'slack'],
      ['RESOLVED', member.id, 'slack'],
    ]);
    expect((await command(teamId, member.slackUserId, 'ack 99999')).body!.text).toMatch(/no incident #99999/);
  });

  it('when a stranger (no member with their Slack email) sends any command but help, then they are told to link their account and nothing changes', async () => {
    const { teamId, ingestUrl } = await connectedWorkspace();
    const incident = await openIncident(ingestUrl);
    const stranger = slack.addUser({ id: newSlackUserId(), email: `stranger-${randomUUID().slice(0, 8)}@example.test`, teamId });
    for (const text of [`ack ${incident.number}`, `resolve ${incident.number}`, 'incidents', 'oncall']) {
      const { res, body } = await command(teamId, stranger.id, text);
      expect(res.status).toBe(200);
      expect(body).toEqual({ response_type: 'ephemeral', text: expect.stringContaining('Link your Slack account') });
    }
    expect(await statusOf(stack.orm, incident.id)).toBe('TRIGGERED');
    expect((await timelineOf(stack.orm, incident.id)).filter((e) => e.type === 'status_change')).toEqual([]);
  });

  it('when a Slack user of another team, or with an unconfirmed Slack email, has a verified member’s email, then every command but help is answered "link your Slack account" and nothing changes', async () => {
    const { ws, teamId, ingestUrl } = await connectedWorkspace();
    const incident = await openIncident(ingestUrl);
    const guest = await slackMember(stack.orm, slack, ws.organizationId, { slackTeamId: 'T0ANOTHER02' });
    const unconfirmed = await slackMember(stack.orm, slack, ws.organizationId, { emailConfirmed: false });
    for (const who of [guest, unconfirmed]) {
      for (const text of [`ack ${incident.number}`, `resolve ${incident.number}`, 'incidents']) {
        const { body } = await command(teamId, who.slackUserId, text);
        expect(body).toEqual({ response_type: 'ephemeral', text: expect.stringContaining('Link your Slack account') });
      }
    }
    expect(await statusOf(stack.orm, incident.id)).toBe('TRIGGERED');
    expect((await timelineOf(stack.orm, incident.id)).filter((e) => e.type === 'status_change')).toEqual([]);
  });

  it('when the workspace was downgraded to FREE with Slack still connected, then a member’s commands change nothing and say chat needs STARTER or above (help still answers)', async () => {
    const { ws, teamId, ingestUrl, member } = await connectedWorkspace();
    const incident = await openIncident(ingestUrl);
    await knexOf(stack.orm)('organizations').where({ id: ws.organizationId }).update({ plan: 'FREE' });
    for (const text of [`ack ${incident.number}`, `resolve ${incident.number}`, 'incidents', 'oncall']) {
      const { res, body } = await command(teamId, member.slackUserId, text);
      expect(res.status).toBe(200);
      expect(body).toEqual({ response_type: 'ephemeral', text: expect.stringMatching(/STARTER plan or above.*on FREE: nothing changed/) });
    }
    expect((await command(teamId, member.slackUserId, 'help')).body!.text).toContain('/klaxon ack N');
    await slackWorkSettled();
    expect(await statusOf(stack.orm, incident.id)).toBe('TRIGGERED');
    expect((await timelineOf(stack.orm, incident.id)).filter((e) => e.type === 'status_change')).toEqual([]);
  });

  it('when the command is signed wrongly or is stale, then 401 and nothing changes', async () => {
    const { teamId, ingestUrl, member } = await connectedWorkspace();
    const incident = await openIncident(ingestUrl);
    expect((await command(teamId, member.slackUserId, `ack ${incident.number}`, { signature: 'v0=forged' })).res.status).toBe(401);
    expect((await command(teamId, member.slackUserId, `ack ${incident.number}`, { at: Math.floor(Date.now() / 1000) - 360 })).res.status).toBe(401);
    expect(await statusOf(stack.orm, incident.id)).toBe('TRIGGERED');
  });

  it('when the text is help or unknown, then the usage comes back', async () => {
    const { teamId, member } = await connectedWorkspace();
    expect((await command(teamId, member.slackUserId, 'help')).body!.text).toContain('/klaxon ack N');
    const unknown = await command(teamId, member.slackUserId, 'page everyone');
    expect(unknown.body!.text).toContain('does not know `page everyone`');
    expect(unknown.body!.text).toContain('/klaxon oncall');
  });
});
