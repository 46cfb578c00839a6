import { incidentWorkflowId } from '../../src/contracts/workflows';
import { request } from '../support/http';
import { useStackWithWorkspace } from '../support/fixture';

const f = useStackWithWorkspace();
const url = (path: string) => f.url(path);

describe('worker restart', () => {
  it('when the worker stops while an incident is open, then a new worker picks it up and the lifecycle finishes', async () => {
    const created = await request('POST', url('/incidents'), {
      token: f.ws.tokens.readWrite,
      body: { title: 'disk full', severity: 'HIGH', owning_team_id: f.ws.teamId },
    });
    const id = created.body.data.id;
    expect((await request('POST', url(`/incidents/${id}/acknowledge`), { token: f.ws.tokens.readWrite })).body.data.status).toBe('ACKNOWLEDGED');

    await f.stack.worker.stop();
    // With no worker the update cannot be applied; it waits instead of failing.
    let settled = false;
    const resolving = request('POST', url(`/incidents/${id}/resolve`), { token: f.ws.tokens.readWrite }).finally(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(settled).toBe(false);
    expect((await request('GET', url(`/incidents/${id}`), { token: f.ws.tokens.readOnly })).body.data.status).toBe('ACKNOWLEDGED');

    await f.stack.worker.start();
    const resolved = await resolving;
    expect(resolved.status).toBe(200);
    expect(resolved.body.data.status).toBe('RESOLVED');
    const closed = await request('POST', url(`/incidents/${id}/close`), { token: f.ws.tokens.readWrite });
    expect(closed.body.data.status).toBe('CLOSED');
    const handle = f.stack.temporal.workflow.getHandle(incidentWorkflowId(id));
    await handle.result();
    expect((await handle.describe()).status.name).toBe('COMPLETED');
  });
});
