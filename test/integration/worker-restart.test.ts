import { incidentWorkflowId } from '../../workflows/definitions';
import { request } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { seedWorkspace, type SeededWorkspace } from '../support/workspace';

let stack: TestStack;
let ws: SeededWorkspace;
const url = (path: string) => `${stack.urls.app}/api/v1/organizations/${ws.organizationId}${path}`;

beforeAll(async () => {
  stack = await startTestStack();
  ws = await seedWorkspace(stack.orm);
});
afterAll(() => stack.stop());

describe('worker restart', () => {
  it('when the worker stops while an incident is open, then a new worker picks it up and the lifecycle finishes', async () => {
    const created = await request('POST', url('/incidents'), { token: ws.tokens.readWrite, body: { title: 'disk full', severity: 'HIGH', owning_team_id: ws.teamId } });
    const id = created.body.data.id;
    expect((await request('POST', url(`/incidents/${id}/acknowledge`), { token: ws.tokens.readWrite })).body.data.status).toBe('ACKNOWLEDGED');

    await stack.worker.stop();
    // With no worker the update cannot be applied; it waits instead of failing.
    let settled = false;
    const resolving = request('POST', url(`/incidents/${id}/resolve`), { token: ws.tokens.readWrite }).finally(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(settled).toBe(false);
    expect((await request('GET', url(`/incidents/${id}`), { token: ws.tokens.readOnly })).body.data.status).toBe('ACKNOWLEDGED');

    await stack.worker.start();
    const resolved = await resolving;
    expect(resolved.status).toBe(200);
    expect(resolved.body.data.status).toBe('RESOLVED');
    const closed = await request('POST', url(`/incidents/${id}/close`), { token: ws.tokens.readWrite });
    expect(closed.body.data.status).toBe('CLOSED');
    const handle = stack.temporal.workflow.getHandle(incidentWorkflowId(id));
    await handle.result();
    expect((await handle.describe()).status.name).toBe('COMPLETED');
  });
});
