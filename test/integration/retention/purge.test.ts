import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { DEFAULT_RETENTION_AGES, noPurgeCounts } from '../../../src/domain/retention';
import { purgeExpiredNow } from '../../../src/services/retention';
import { NO_ROWS, SEEDED_ROWS, retentionFixture } from '../../support/retention-seed';

// The purge on a real Postgres (this file's own database): each kind of row past its age goes,
// fresh ones and anything open stay, and incidents follow their workspace plan's window.
const fx = retentionFixture();

const exists = async (table: string, where: Record<string, unknown>) => (await knexOf(fx.orm)(table).where(where).first()) !== undefined;
const purgeAll = () => purgeExpiredNow(fx.orm, DEFAULT_RETENTION_AGES);

describe('retention purge (real Postgres)', () => {
  beforeEach(async () => {
    // Each test counts what it deletes: start from what earlier tests left purged.
    await purgeAll();
  });

  it('when dashboard sessions ended, email tokens and invitations expired long enough ago, then they go; live ones stay', async () => {
    const db = knexOf(fx.orm);
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
    const session = (id: string, over: Record<string, unknown>) => ({
      id,
      token_hash: id.replace(/-/g, '').padEnd(64, '0'),
      user_id: id,
      organization_id: id,
      csrf_token: 'x',
      created_at: hoursAgo(48),
      last_seen_at: hoursAgo(1),
      expires_at: hoursAgo(-100),
      revoked_at: null,
      ...over,
    });
    const ids = ['live', 'expired', 'revoked', 'idle', 'revokedRecently'].map((_, i) => `00000000-0000-4000-8000-00000000000${i}`);
    await db('sessions').insert([
      session(ids[0], {}),
      session(ids[1], { expires_at: hoursAgo(25) }),
      session(ids[2], { revoked_at: hoursAgo(25) }),
      session(ids[3], { last_seen_at: hoursAgo(37) }),
      session(ids[4], { revoked_at: hoursAgo(1) }),
    ]);
    await db('account_tokens').insert([
      { id: ids[0], user_id: ids[0], purpose: 'verify_email', token_hash: 'a'.repeat(64), expires_at: hoursAgo(25), used_at: null, created_at: hoursAgo(73) },
      { id: ids[1], user_id: ids[0], purpose: 'reset_password', token_hash: 'b'.repeat(64), expires_at: hoursAgo(-1), used_at: null, created_at: hoursAgo(0) },
    ]);
    await db('invitations').insert([
      {
        id: ids[0],
        organization_id: ids[0],
        email: 'old@example.test',
        role: 'MEMBER',
        token_hash: 'c'.repeat(64),
        created_at: hoursAgo(40 * 24),
        expires_at: hoursAgo(31 * 24),
      },
      {
        id: ids[1],
        organization_id: ids[0],
        email: 'new@example.test',
        role: 'MEMBER',
        token_hash: 'd'.repeat(64),
        created_at: hoursAgo(1),
        expires_at: hoursAgo(-7 * 24),
      },
    ]);

    const { deleted } = await purgeAll();

    expect(deleted).toEqual({ ...noPurgeCounts(), sessions: 3, account_tokens: 1, invitations: 1 });
    expect((await db('sessions').whereIn('id', ids).pluck('id')).sort()).toEqual([ids[0], ids[4]]);
    expect(await db('account_tokens').whereIn('id', ids).pluck('id')).toEqual([ids[1]]);
    expect(await db('invitations').whereIn('id', ids).pluck('id')).toEqual([ids[1]]);
  });

  it('when throttle windows have ended, then their counts go; counts of running windows stay', async () => {
    const db = knexOf(fx.orm);
    // As rate-limiter-flexible writes them: `expire` is the window's end in epoch ms.
    await db('throttle_counts').insert([
      { key: 'login-ip:ended', points: 20, expire: Date.now() - 1000 },
      { key: 'login-ip:running', points: 3, expire: Date.now() + 60_000 },
    ]);

    const { deleted } = await purgeAll();

    expect(deleted).toEqual({ ...noPurgeCounts(), throttle_counts: 1 });
    expect(await exists('throttle_counts', { key: 'login-ip:ended' })).toBe(false);
    expect(await exists('throttle_counts', { key: 'login-ip:running' })).toBe(true);
  });

  it('when rows of every kind are past their age, then they are purged and counted; fresh ones stay', async () => {
    const expired = await fx.seed.idempotencyRecord(-0.1);
    const live = await fx.seed.idempotencyRecord(0.5);
    const free = await fx.seed.workspace('FREE');
    const holder = await fx.seed.incident(free, 'TRIGGERED', 0.1);
    const oldDelivered = await fx.seed.outbox(holder, 3, 2);
    const newDelivered = await fx.seed.outbox(holder, 1, 0.5);
    const oldPending = await fx.seed.outbox(holder, 3, null);
    const oldCallback = await fx.seed.callback(8);
    const newCallback = await fx.seed.callback(6);
    const oldInbox = await fx.seed.devDelivery(8);
    const newInbox = await fx.seed.devDelivery(1);

    const { deleted, finished } = await purgeAll();

    expect(finished).toBe(true);
    expect(deleted).toEqual({ ...noPurgeCounts(), idempotency_records: 1, ingest_outbox: 1, provider_callbacks: 1, dev_deliveries: 1 });
    expect(await exists('idempotency_records', { key: expired })).toBe(false);
    expect(await exists('idempotency_records', { key: live })).toBe(true);
    expect(await exists('ingest_outbox', { id: oldDelivered })).toBe(false);
    expect(await exists('ingest_outbox', { id: newDelivered })).toBe(true);
    // Never delivered: the relay still owes it, however old.
    expect(await exists('ingest_outbox', { id: oldPending })).toBe(true);
    expect(await exists('provider_callbacks', { key: oldCallback })).toBe(false);
    expect(await exists('provider_callbacks', { key: newCallback })).toBe(true);
    expect(await exists('dev_deliveries', { id: oldInbox })).toBe(false);
    expect(await exists('dev_deliveries', { id: newInbox })).toBe(true);
    expect(await fx.seed.rowsOf(holder)).toEqual({ ...SEEDED_ROWS, ingest_outbox: 3 });
  });

  it('when a CLOSED incident is past its FREE plan window, then it goes with all its rows; recent, open or RESOLVED ones stay', async () => {
    const free = await fx.seed.workspace('FREE');
    const old = await fx.seed.incident(free, 'CLOSED', 10, 8);
    // Opened long ago, closed inside the window: its history is still recent.
    const closedLately = await fx.seed.incident(free, 'CLOSED', 30, 2);
    const resolved = await fx.seed.incident(free, 'RESOLVED', 30);
    const triggered = await fx.seed.incident(free, 'TRIGGERED', 30);

    const { deleted } = await purgeAll();

    expect(await fx.seed.rowsOf(old)).toEqual(NO_ROWS);
    for (const kept of [closedLately, resolved, triggered]) expect(await fx.seed.rowsOf(kept)).toEqual(SEEDED_ROWS);
    expect(deleted).toEqual({ ...noPurgeCounts(), incidents: 1, alerts: 2, timeline_entries: 2, notifications: 1, user_notifications: 1, ingest_outbox: 1 });
  });

  it('when Slack messages and their deliveries are old, then finished deliveries go after 30 days and a purged incident takes its message and deliveries; pending or recent ones stay', async () => {
    const db = knexOf(fx.orm);
    const free = await fx.seed.workspace('FREE');
    const purged = await fx.seed.incident(free, 'CLOSED', 10, 8);
    const open = await fx.seed.incident(free, 'TRIGGERED', 40);
    const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000);
    const delivery = (incidentId: string, over: Record<string, unknown>) => ({
      id: randomUUID(),
      consumer: 'slack',
      target_id: 'C0ALERTS01',
      organization_id: free.organizationId,
      event_id: randomUUID(),
      incident_id: incidentId,
      type: 'incident.triggered',
      event: JSON.stringify({}),
      ...over,
    });
    const oldDelivered = delivery(open, { created_at: daysAgo(31), delivered_at: daysAgo(31) });
    const oldParked = delivery(open, { created_at: daysAgo(31), parked_at: daysAgo(30) });
    const oldPending = delivery(open, { created_at: daysAgo(31) });
    const newDelivered = delivery(open, { created_at: daysAgo(1), delivered_at: daysAgo(1) });
    const ofPurged = delivery(purged, { created_at: daysAgo(8), delivered_at: daysAgo(8) });
    await db('feed_deliveries').insert([oldDelivered, oldParked, oldPending, newDelivered, ofPurged]);
    const message = (incidentId: string) => ({
      id: randomUUID(),
      incident_id: incidentId,
      organization_id: free.organizationId,
      channel_id: 'C0ALERTS01',
      ts: '1.000001',
    });
    await db('slack_messages').insert([message(purged), message(open)]);

    const { deleted } = await purgeAll();

    expect(deleted).toMatchObject({ feed_deliveries: 3, slack_messages: 1 });
    const left = (await db('feed_deliveries').whereIn('incident_id', [open, purged]).select('id')).map((r) => r.id).sort();
    expect(left).toEqual([oldPending.id, newDelivered.id].sort());
    expect(await exists('slack_messages', { incident_id: purged })).toBe(false);
    expect(await exists('slack_messages', { incident_id: open })).toBe(true);
  });

  it('when a purged incident was paged, then the record of its first page goes with it; an open incident keeps its own', async () => {
    const db = knexOf(fx.orm);
    const free = await fx.seed.workspace('FREE');
    const purged = await fx.seed.incident(free, 'CLOSED', 10, 8);
    const open = await fx.seed.incident(free, 'TRIGGERED', 40);
    const firstPage = (incidentId: string) => ({ incident_id: incidentId, notification_id: randomUUID(), paged_at: new Date() });
    await db('incident_first_pages').insert([firstPage(purged), firstPage(open)]);

    const { deleted } = await purgeAll();

    expect(deleted).toMatchObject({ incidents: 1, incident_first_pages: 1 });
    expect(await exists('incident_first_pages', { incident_id: purged })).toBe(false);
    expect(await exists('incident_first_pages', { incident_id: open })).toBe(true);
  });

  it('when two workspaces on different plans hold incidents closed as long ago, then the longer plan keeps what FREE loses', async () => {
    const free = await fx.seed.workspace('FREE');
    const pro = await fx.seed.workspace('PRO');
    const business = await fx.seed.workspace('BUSINESS');
    const freeWeekOld = await fx.seed.incident(free, 'CLOSED', 9, 8);
    const proWeekOld = await fx.seed.incident(pro, 'CLOSED', 9, 8);
    const proQuarterOld = await fx.seed.incident(pro, 'CLOSED', 100, 91);
    const businessQuarterOld = await fx.seed.incident(business, 'CLOSED', 100, 91);

    await purgeAll();

    expect(await fx.seed.rowsOf(freeWeekOld)).toEqual(NO_ROWS);
    expect(await fx.seed.rowsOf(proWeekOld)).toEqual(SEEDED_ROWS);
    expect(await fx.seed.rowsOf(proQuarterOld)).toEqual(NO_ROWS);
    expect(await fx.seed.rowsOf(businessQuarterOld)).toEqual(SEEDED_ROWS);
  });

  it('when the backlog is larger than a batch, then it is deleted batch by batch until none is left', async () => {
    const free = await fx.seed.workspace('FREE');
    const keys: string[] = [];
    for (let i = 0; i < 7; i++) keys.push(await fx.seed.idempotencyRecord(-1));
    const incidents: string[] = [];
    for (let i = 0; i < 3; i++) incidents.push(await fx.seed.incident(free, 'CLOSED', 20, 10));

    const { deleted, finished } = await purgeExpiredNow(fx.orm, DEFAULT_RETENTION_AGES, { batchRows: 3 });

    expect(finished).toBe(true);
    expect(deleted).toMatchObject({ idempotency_records: 7, incidents: 3, alerts: 6, timeline_entries: 6 });
    for (const id of incidents) expect(await fx.seed.rowsOf(id)).toEqual(NO_ROWS);
    for (const key of keys) expect(await exists('idempotency_records', { key })).toBe(false);
  });

  it('when the time budget is spent, then the purge stops after the batch in hand, says it is not finished, and the next one finishes', async () => {
    for (let i = 0; i < 5; i++) await fx.seed.idempotencyRecord(-1);
    const free = await fx.seed.workspace('FREE');
    const old = await fx.seed.incident(free, 'CLOSED', 20, 10);

    const first = await purgeExpiredNow(fx.orm, DEFAULT_RETENTION_AGES, { batchRows: 2, deadline: Date.now() - 1 });
    expect(first.finished).toBe(false);
    expect(first.deleted).toEqual({ ...noPurgeCounts(), idempotency_records: 2 });
    expect(await fx.seed.rowsOf(old)).toEqual(SEEDED_ROWS);

    const second = await purgeExpiredNow(fx.orm, DEFAULT_RETENTION_AGES, { batchRows: 2 });
    expect(second.finished).toBe(true);
    expect(second.deleted).toMatchObject({ idempotency_records: 3, incidents: 1 });
    expect(await fx.seed.rowsOf(old)).toEqual(NO_ROWS);
  });
});
