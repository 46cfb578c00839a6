import { incidentStateQuery, incidentWorkflowId } from '../../src/contracts/workflows';
import { knexOf } from '../../src/db/knex';
import { request } from '../support/http';
import { useStackWithWorkspace } from '../support/fixture';
import { waitFor } from '../support/wait';

const f = useStackWithWorkspace();
const url = (path: string) => f.url(path);

describe('long incident histories', () => {
  it('when the history passes the limit, then the run continues as new with its state and keeps answering', async () => {
    const id = (
      await request('POST', url('/incidents'), { token: f.ws.tokens.readWrite, body: { title: 'flapping', severity: 'LOW', owning_team_id: f.ws.teamId } })
    ).body.data.id;
    const workflowId = incidentWorkflowId(id);
    // Its first paging decision written (nobody to page, docs/architecture.md, "Incidents") before the workflow goes,
    // so no write of the old run lands after the new one starts from the projection.
    await waitFor(async () => (await knexOf(f.stack.orm)('incidents').where({ id }).first()).last_seq === 2, 15_000, 'the paging decision');
    // Restart the incident's workflow with a low limit so a few transitions cross it.
    const first = f.stack.temporal.workflow.getHandle(workflowId);
    await first.terminate('test: restart with a low history limit');
    const row = await knexOf(f.stack.orm)('incidents').where({ id }).first();
    await f.stack.temporal.workflow.start('incidentWorkflow', {
      taskQueue: f.stack.taskQueue,
      workflowId,
      args: [
        {
          incidentId: id,
          organizationId: f.ws.organizationId,
          serviceId: null,
          severity: row.severity,
          status: row.status,
          seq: row.last_seq,
          historyLimit: 40,
        },
      ],
    });
    const startRun = (await f.stack.temporal.workflow.getHandle(workflowId).describe()).runId;

    const ops = ['acknowledge', 'resolve', 'reopen', 'investigate', 'resolve', 'reopen', 'acknowledge', 'resolve', 'reopen', 'resolve'];
    for (const op of ops) {
      const res = await request('POST', url(`/incidents/${id}/${op}`), { token: f.ws.tokens.readWrite });
      expect({ op, status: res.status }).toEqual({ op, status: 200 });
    }
    const latest = f.stack.temporal.workflow.getHandle(workflowId);
    const d = await latest.describe();
    expect(d.runId).not.toBe(startRun);
    expect(d.status.name).toBe('RUNNING');
    const firstRun = await f.stack.temporal.workflow.getHandle(workflowId, startRun).describe();
    expect(firstRun.status.name).toBe('CONTINUED_AS_NEW');
    // Every move, and a paging decision for each TRIGGERED spell that got as far as one: no seq
    // lost or reused across the runs.
    const timeline = await knexOf(f.stack.orm)('timeline_entries').where({ incident_id: id }).orderBy('seq');
    expect(timeline.filter((t) => t.type !== 'paging_decision')).toHaveLength(1 + ops.length);
    expect(timeline.map((t) => t.seq)).toEqual(Array.from({ length: timeline.length }, (_, i) => i + 1));
    expect(await latest.query(incidentStateQuery)).toEqual({ status: 'RESOLVED', seq: timeline.length });
  });
});
