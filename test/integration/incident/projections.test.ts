import { randomUUID } from 'node:crypto';
import { recordPageEntry } from '../../../src/services/incident/store';
import { createProjectionActivities } from '../../../activities/projections';
import { knexOf } from '../../../src/db/knex';
import { openOrm, type MikroORM } from '../../../src/db/orm';
import { createIncident } from '../../../src/services/incident/incidents';
import { seedWorkspace } from '../../support/workspace';

let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
});
afterAll(() => orm.close());

/** A projection row without a workflow: these tests drive the activity directly. */
async function incidentRow() {
  const ws = await seedWorkspace(orm);
  const noWorkflows = {
    withDeadline: (_d: number, fn: () => unknown) => fn(),
    withAbortSignal: (_s: AbortSignal, fn: () => unknown) => fn(),
    workflow: { signalWithStart: async () => undefined },
  } as never;
  return createIncident(
    { orm, temporal: noWorkflows, taskQueue: 'unused' },
    {
      organizationId: ws.organizationId,
      title: 'projection',
      severity: 'LOW',
      owningTeamId: ws.teamId,
      actor: { type: 'system', id: null, via: 'test' },
    },
  );
}

describe('recordAlertsAttached', () => {
  it('when seqs hold other entries, then the alerts go after everything written, and a retry writes none twice', async () => {
    const { recordAlertsAttached } = createProjectionActivities({ orm });
    const inc = await incidentRow();
    await recordPageEntry(knexOf(orm), { incidentId: inc.id, seq: 2, channel: 'sms', message: 'SMS to someone sent' });
    const input = {
      incidentId: inc.id,
      firstSeq: 2,
      alerts: [
        { eventId: randomUUID(), title: 'a' },
        { eventId: randomUUID(), title: 'b' },
      ],
      at: '2026-01-01T00:00:01.000Z',
    };
    expect(await recordAlertsAttached(input)).toEqual({ lastSeq: 4 });
    expect(await recordAlertsAttached(input)).toEqual({ lastSeq: 4 });
    const entries = await knexOf(orm)('timeline_entries').where({ incident_id: inc.id }).orderBy('seq');
    expect(entries.map((e) => [e.seq, e.message])).toEqual([
      [1, expect.stringContaining('opened')],
      [2, 'SMS to someone sent'],
      [3, 'Alert attached: a'],
      [4, 'Alert attached: b'],
    ]);
  });
});

describe('recordTransition', () => {
  it('when an attempt is retried, then the incident and its timeline change once', async () => {
    const { recordTransition } = createProjectionActivities({ orm });
    const inc = await incidentRow();
    const input = {
      incidentId: inc.id,
      seq: 2,
      operation: 'acknowledge' as const,
      from: 'TRIGGERED' as const,
      to: 'ACKNOWLEDGED' as const,
      actor: { type: 'system' as const, id: null, via: 'test' },
      at: '2026-01-02T03:04:05.000Z',
    };
    const first = await recordTransition(input);
    const again = await recordTransition({ ...input, at: '2026-01-02T09:09:09.000Z' });
    expect(first).toMatchObject({ status: 'ACKNOWLEDGED', acknowledged_at: '2026-01-02T03:04:05.000Z', updated_at: '2026-01-02T03:04:05.000Z' });
    expect(again).toEqual(first);
    const entries = await knexOf(orm)('timeline_entries').where({ incident_id: inc.id }).orderBy('seq');
    expect(entries.map((e) => [e.seq, e.to_status, e.message])).toEqual([
      [1, 'TRIGGERED', expect.stringContaining('opened')],
      [2, 'ACKNOWLEDGED', 'Acknowledged (TRIGGERED → ACKNOWLEDGED)'],
    ]);
  });

  it('when an older sequence number arrives late, then it does not overwrite a newer state', async () => {
    const { recordTransition } = createProjectionActivities({ orm });
    const inc = await incidentRow();
    const actor = { type: 'system' as const, id: null, via: 'test' };
    await recordTransition({
      incidentId: inc.id,
      seq: 2,
      operation: 'acknowledge',
      from: 'TRIGGERED',
      to: 'ACKNOWLEDGED',
      actor,
      at: '2026-01-01T00:00:01.000Z',
    });
    await recordTransition({ incidentId: inc.id, seq: 3, operation: 'resolve', from: 'ACKNOWLEDGED', to: 'RESOLVED', actor, at: '2026-01-01T00:00:02.000Z' });
    const late = await recordTransition({
      incidentId: inc.id,
      seq: 2,
      operation: 'acknowledge',
      from: 'TRIGGERED',
      to: 'ACKNOWLEDGED',
      actor,
      at: '2026-01-01T00:00:03.000Z',
    });
    expect(late.status).toBe('RESOLVED');
  });

  it('when the seq holds another entry (a lost workflow task wrote it), then the move goes after it, is applied, and a retry finds it there', async () => {
    const { recordTransition } = createProjectionActivities({ orm });
    const inc = await incidentRow();
    const actor = { type: 'system' as const, id: null, via: 'test' };
    await recordPageEntry(knexOf(orm), { incidentId: inc.id, seq: 2, channel: 'sms', message: 'SMS to someone sent' });
    const input = {
      incidentId: inc.id,
      seq: 2,
      operation: 'resolve' as const,
      from: 'TRIGGERED' as const,
      to: 'RESOLVED' as const,
      actor,
      at: '2026-01-01T00:00:01.000Z',
    };
    const moved = await recordTransition(input);
    expect(moved).toMatchObject({ status: 'RESOLVED', timelineSeq: 3 });
    expect(await recordTransition(input)).toMatchObject({ status: 'RESOLVED', timelineSeq: 3 });
    const entries = await knexOf(orm)('timeline_entries').where({ incident_id: inc.id }).orderBy('seq');
    expect(entries.map((e) => [e.seq, e.type])).toEqual([
      [1, 'created'],
      [2, 'notification'],
      [3, 'status_change'],
    ]);
    expect((await knexOf(orm)('incidents').where({ id: inc.id }).first()).last_seq).toBe(3);
  });

  it('when the incident has no projection, then a non-retryable failure', async () => {
    const { recordTransition } = createProjectionActivities({ orm });
    await expect(
      recordTransition({
        incidentId: '00000000-0000-4000-8000-0000000000aa',
        seq: 2,
        operation: 'acknowledge',
        from: 'TRIGGERED',
        to: 'ACKNOWLEDGED',
        actor: { type: 'system', id: null, via: 'test' },
        at: '2026-01-01T00:00:00.000Z',
      }),
    ).rejects.toMatchObject({ type: 'IncidentNotFound', nonRetryable: true });
  });
});
