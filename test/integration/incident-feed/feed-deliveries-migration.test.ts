import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import { Client as PgClient } from 'pg';
import { knexOf } from '../../../src/db/knex';
import { openOrm, type MikroORM } from '../../../src/db/orm';
import { startTeamsWebhook, type TeamsWebhookFake } from '../../../src/integrations/microsoft-teams/testing/wire-fake';
import { SlackApiFake } from '../../../src/integrations/slack/testing/wire-fake';
import { createSealer } from '../../../src/services/sealing/seal';
import { startTestStack, TEST_SECRET, type TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { startWebhookReceiver } from '../../support/webhook-receiver';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

/**
 * The move of the three delivery queues into `feed_deliveries`
 * (src/db/migrations/Migration20261217100000_feed_deliveries.ts), on rows as the old code wrote
 * them: a database migrated up to the migration before it, the old tables filled, the migration
 * run, then the real consumers against the wire fakes.
 */
const BEFORE = 'Migration20261216090000_noise_control';
const MIGRATION = 'Migration20261217100000_feed_deliveries';

const sealer = createSealer(TEST_SECRET);
const secret = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
let dbUrl: string;
let orm: MikroORM;
let db: Knex;
let ws: SeededWorkspace;
let stack: TestStack | undefined;
let teams: TeamsWebhookFake;
let slack: SlackApiFake;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
const CHANNEL = 'C0MIGRATE1';

beforeAll(async () => {
  const url = new URL(process.env.KLAXON_TEST_DATABASE_URL!);
  const name = `${url.pathname.slice(1)}_mq`;
  const admin = new PgClient({ connectionString: url.toString().replace(url.pathname, '/postgres') });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  url.pathname = `/${name}`;
  dbUrl = url.toString();
  orm = await openOrm(dbUrl, 4);
  await orm.getMigrator().up({ to: BEFORE });
  db = knexOf(orm);
  teams = await startTeamsWebhook();
  slack = await new SlackApiFake().start();
  slack.tokens.add(slack.botToken);
  slack.channels.push({ id: CHANNEL, name: 'inc-migrate' });
  receiver = await startWebhookReceiver({ secret: () => secret });
});

afterAll(async () => {
  await stack?.stop();
  await orm?.close();
  await teams?.close();
  await slack?.stop();
  await receiver?.close();
});

/** An incident as the customer API v1 shows it, as the feed's events carry it. */
function snapshot(id: string, number: number, status: string) {
  const at = minutesAgo(30).toISOString();
  return {
    id,
    organization_id: ws.organizationId,
    number,
    title: `Checkout down ${number}`,
    description: null,
    severity: 'CRITICAL',
    status,
    service_id: ws.serviceId,
    owning_team_id: ws.teamId,
    dedup_key: null,
    alert_count: 1,
    created_at: at,
    acknowledged_at: status === 'ACKNOWLEDGED' ? at : null,
    resolved_at: null,
    closed_at: null,
    updated_at: at,
  };
}

type Old = Record<string, unknown> & { id: string; event_id: string };
/** One old-style queue row: an event of `incident` (its type and status), and its attempt columns. */
function oldRow(incident: { id: string; number: number }, type: string, status: string, over: Record<string, unknown>): Old {
  const eventId = randomUUID();
  const event = {
    id: eventId,
    type,
    created_at: minutesAgo(30).toISOString(),
    organization_id: ws.organizationId,
    incident: snapshot(incident.id, incident.number, status),
    actor: null,
    data: {},
  };
  return {
    id: randomUUID(),
    organization_id: ws.organizationId,
    event_id: eventId,
    incident_id: incident.id,
    type,
    event: JSON.stringify(event),
    created_at: minutesAgo(30),
    ...over,
  };
}

/** The columns every old queue shared, as they must arrive. */
const SHARED = [
  'organization_id',
  'event_id',
  'incident_id',
  'type',
  'event',
  'attempts',
  'next_attempt_at',
  'leased_until',
  'delivered_at',
  'parked_at',
  'last_status_code',
  'last_error',
  'latency_ms',
  'created_at',
] as const;

describe('moving the three delivery queues into feed_deliveries', () => {
  it('when the old tables hold pending, leased, delivered, parked and skipped rows, then every row arrives with its fields and lane order (and goes back on the way down), and the consumers deliver the pending ones exactly once', async () => {
    ws = await seedWorkspace(orm);
    const hookId = randomUUID();
    await db('outgoing_webhooks').insert({ id: hookId, organization_id: ws.organizationId, url: receiver.url, secret_sealed: sealer.seal(secret) });
    await db('slack_installations').insert({
      id: randomUUID(),
      organization_id: ws.organizationId,
      slack_team_id: slack.teamId,
      slack_team_name: slack.teamName,
      bot_user_id: slack.botUserId,
      bot_token_sealed: sealer.seal(slack.botToken),
      scopes: 'chat:write',
    });
    await db('service_chat_settings').insert({
      service_id: ws.serviceId,
      organization_id: ws.organizationId,
      slack_channel_id: CHANNEL,
      slack_channel_name: 'inc-migrate',
      teams_webhook_url_sealed: sealer.seal(teams.url),
    });
    const incidents = [1, 2].map((n) => ({ id: randomUUID(), number: 9000 + n }));
    for (const i of incidents) {
      await db('incidents').insert({
        id: i.id,
        organization_id: ws.organizationId,
        number: i.number,
        service_id: ws.serviceId,
        owning_team_id: ws.teamId,
        title: `Checkout down ${i.number}`,
        severity: 'CRITICAL',
        status: 'ACKNOWLEDGED',
        alert_count: 1,
        last_seq: 1,
        created_at: minutesAgo(30),
        updated_at: minutesAgo(30),
      });
    }
    const [a, b] = incidents;
    const done = { attempts: 1, last_status_code: 200, latency_ms: 42 };

    // Outgoing webhooks: incident a's lane has a delivered event, then one retried twice (due), then
    // one waiting behind it; incident b's has a parked one, then one leased by a process that died.
    const webhooks = [
      oldRow(a, 'incident.triggered', 'TRIGGERED', { ...done, delivered_at: minutesAgo(29) }),
      oldRow(a, 'incident.acknowledged', 'ACKNOWLEDGED', {
        attempts: 2,
        next_attempt_at: minutesAgo(1),
        last_status_code: 503,
        last_error: 'answered 503',
        latency_ms: 12,
      }),
      oldRow(b, 'incident.triggered', 'TRIGGERED', { attempts: 8, parked_at: minutesAgo(5), last_status_code: 500, last_error: 'answered 500', latency_ms: 7 }),
      oldRow(a, 'incident.escalated', 'ACKNOWLEDGED', {}),
      oldRow(b, 'incident.acknowledged', 'ACKNOWLEDGED', { attempts: 1, leased_until: new Date(Date.now() + 3_000), last_error: 'timed out' }),
    ].map((r) => ({ ...r, webhook_id: hookId }));
    await db('outgoing_webhook_deliveries').insert(webhooks);

    // Slack: a delivered reply (its ts kept), a skipped one, and incident b's first message, due.
    const slackRows = [
      oldRow(a, 'incident.acknowledged', 'ACKNOWLEDGED', { ...done, last_status_code: null, delivered_at: minutesAgo(20), reply_ts: '1700000000.000200' }),
      oldRow(a, 'incident.escalated', 'ACKNOWLEDGED', { parked_at: minutesAgo(19), skipped_at: minutesAgo(19), last_error: 'skipped: Slack is not connected' }),
      oldRow(b, 'incident.triggered', 'TRIGGERED', { attempts: 1, next_attempt_at: minutesAgo(1), last_error: 'ratelimited' }),
    ].map((r) => ({ ...r, channel_id: CHANNEL }));
    await db('slack_deliveries').insert(slackRows);

    // Microsoft Teams: delivered, parked and skipped cards of incident a; incident b's two cards pending in lane order.
    const teamsRows = [
      oldRow(a, 'incident.triggered', 'TRIGGERED', { ...done, last_status_code: 202, delivered_at: minutesAgo(29) }),
      oldRow(a, 'incident.acknowledged', 'ACKNOWLEDGED', { attempts: 1, parked_at: minutesAgo(28), last_status_code: 404, last_error: 'answered 404' }),
      oldRow(b, 'incident.triggered', 'TRIGGERED', { attempts: 3, next_attempt_at: minutesAgo(2), last_status_code: 502, last_error: 'answered 502' }),
      oldRow(a, 'incident.escalated', 'ACKNOWLEDGED', { parked_at: minutesAgo(27), skipped_at: minutesAgo(27), last_error: 'skipped: no chat' }),
      oldRow(b, 'incident.acknowledged', 'ACKNOWLEDGED', {}),
    ].map((r) => ({ ...r, service_id: ws.serviceId }));
    await db('teams_deliveries').insert(teamsRows);

    // The feed positions as the old code kept them (an empty feed here: fan-outs take nothing).
    await db('incident_event_consumers').insert([
      { name: 'teams', position_xid: '0', position_seq: 4242 },
      { name: 'slack-messages', position_xid: '0', position_seq: 4343 },
      { name: 'outgoing-webhooks', position_xid: '0', position_seq: 4444 },
    ]);
    const before = async (table: string) => db(table).orderBy('lane_seq').select();
    const old = {
      'outgoing-webhooks': { rows: await before('outgoing_webhook_deliveries'), target: 'webhook_id' },
      slack: { rows: await before('slack_deliveries'), target: 'channel_id' },
      'microsoft-teams': { rows: await before('teams_deliveries'), target: 'service_id' },
    };

    expect((await orm.getMigrator().up({ to: MIGRATION })).map((m) => m.name)).toEqual([MIGRATION]);

    for (const [consumer, { rows, target }] of Object.entries(old)) {
      const moved = await db('feed_deliveries').where({ consumer }).orderBy('lane_seq').select();
      // Every row, in its old lane order.
      expect(moved.map((r) => r.id)).toEqual(rows.map((r) => r.id));
      for (const [i, row] of rows.entries()) {
        expect(moved[i].target_id).toBe(String(row[target]));
        for (const column of SHARED) expect([column, moved[i][column]]).toEqual([column, row[column]]);
        expect(moved[i].skipped_at).toEqual(row.skipped_at ?? null);
        expect(moved[i].external_ref).toBe(row.reply_ts ?? null);
      }
    }
    expect(await db('feed_deliveries').count({ n: '*' })).toEqual([{ n: String(webhooks.length + slackRows.length + teamsRows.length) }]);
    for (const gone of ['outgoing_webhook_deliveries', 'slack_deliveries', 'teams_deliveries']) expect(await db.schema.hasTable(gone)).toBe(false);
    // The Teams position moved to its registry key unchanged; the others stayed.
    const positions = await db('incident_event_consumers').orderBy('name').select('name', 'position_seq');
    expect(positions).toEqual([
      { name: 'microsoft-teams', position_seq: '4242' },
      { name: 'outgoing-webhooks', position_seq: '4444' },
      { name: 'slack-messages', position_seq: '4343' },
    ]);
    // A new row lands after every moved one.
    const [{ max }] = await db('feed_deliveries').max({ max: 'lane_seq' });
    const fresh = oldRow(b, 'incident.resolved', 'RESOLVED', { parked_at: new Date() });
    await db('feed_deliveries').insert({ ...fresh, consumer: 'slack', target_id: 'C0OTHER001' });
    expect(BigInt((await db('feed_deliveries').where({ id: fresh.id }).first('lane_seq')).lane_seq)).toBeGreaterThan(BigInt(max));
    await db('feed_deliveries').where({ id: fresh.id }).delete();

    // Down and up again: the old tables get every row back as it was, in lane order.
    await orm.getMigrator().down({ to: MIGRATION });
    for (const [table, rowsBefore] of [
      ['outgoing_webhook_deliveries', old['outgoing-webhooks'].rows],
      ['slack_deliveries', old.slack.rows],
      ['teams_deliveries', old['microsoft-teams'].rows],
    ] as const) {
      const back = await db(table).orderBy('lane_seq').select();
      const withoutSeq = (rs: Array<Record<string, unknown>>) => rs.map(({ lane_seq: _seq, ...r }) => r);
      expect(withoutSeq(back)).toEqual(withoutSeq(rowsBefore));
    }
    expect(await db('incident_event_consumers').where({ name: 'teams' }).first('position_seq')).toEqual({ position_seq: '4242' });
    expect(await db.schema.hasTable('feed_deliveries')).toBe(false);
    await orm.getMigrator().up({ to: MIGRATION });
    expect(await db('feed_deliveries').count({ n: '*' })).toEqual([{ n: String(webhooks.length + slackRows.length + teamsRows.length) }]);

    await orm.getMigrator().up();
    stack = await startTestStack({ databaseUrl: dbUrl, worker: false, env: { ALLOW_PRIVATE_TARGETS: 'true', ...slack.env() } });

    const pending = (rows: Old[], indexes: number[]) => indexes.map((i) => rows[i]);
    await waitFor(
      async () => (await db('feed_deliveries').whereNull('delivered_at').whereNull('parked_at').count({ n: '*' }))[0].n === '0',
      30_000,
      'every pending row delivered',
    );
    await sleep(1_500);

    // Outgoing webhooks: the three pending events, once each, signed, in each incident's order.
    expect(receiver.received.map((r) => r.id).sort()).toEqual(
      pending(webhooks, [1, 3, 4])
        .map((r) => r.event_id)
        .sort(),
    );
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const ofA = receiver.received.filter((r) => r.event.incident?.id === a.id).map((r) => r.id);
    expect(ofA).toEqual([webhooks[1].event_id, webhooks[3].event_id]);
    const retried = await db('feed_deliveries').where({ id: webhooks[1].id }).first();
    expect(retried).toMatchObject({ attempts: 3, last_status_code: 200, last_error: null });

    // Slack: one message for incident b in the channel, none for a's finished rows.
    const posted = slack.messages.filter((m) => m.channel === CHANNEL && !m.thread_ts);
    expect(posted).toHaveLength(1);
    expect(JSON.stringify(posted[0].versions[0].blocks)).toContain(b.id);
    expect(slack.messages.some((m) => JSON.stringify(m.versions).includes(a.id))).toBe(false);

    // Microsoft Teams: incident b's two cards, once each, in order; nothing of a's.
    expect(teams.posts.map((p) => p.text.split('\n')[0])).toEqual([`New incident · #${b.number}`, `Acknowledged · #${b.number}`]);
    expect(teams.posts.every((p) => p.valid)).toBe(true);
  }, 120_000);
});
