import { createMonitor, createService } from '../../../src/services/workspace/catalog';
import { request } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

let stack: TestStack;
let ws: SeededWorkspace;
let other: SeededWorkspace;
const url = (path: string) => `${stack.urls.app}/api/v1/organizations/${ws.organizationId}${path}`;

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  ws = await seedWorkspace(stack.orm);
  other = await seedWorkspace(stack.orm);
});
afterAll(() => stack.stop());

describe('services (read-only)', () => {
  it('when listing, then the workspace services come back with their owning team, and no others', async () => {
    const second = await createService(stack.orm, { organizationId: ws.organizationId, teamId: ws.teamId, name: 'Payments', description: 'card flows' });
    const res = await request('GET', url('/services'), { token: ws.tokens.readOnly });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { id: string }) => s.id)).toEqual([ws.serviceId, second.id]);
    expect(res.body.data[1]).toEqual({
      id: second.id,
      name: 'Payments',
      description: 'card flows',
      owning_team_id: ws.teamId,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.body.data.some((s: { id: string }) => s.id === other.serviceId)).toBe(false);
  });

  it('when fetching one, then 200; unknown, malformed or foreign ids are 404', async () => {
    const one = await request('GET', url(`/services/${ws.serviceId}`), { token: ws.tokens.readOnly });
    expect(one.status).toBe(200);
    expect(one.body.data.id).toBe(ws.serviceId);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', other.serviceId]) {
      const res = await request('GET', url(`/services/${id}`), { token: ws.tokens.readOnly });
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/not found/);
    }
  });
});

describe('monitors (read-only)', () => {
  it('when the workspace has no monitors, then an empty list', async () => {
    const fresh = await seedWorkspace(stack.orm);
    const res = await request('GET', `${stack.urls.app}/api/v1/organizations/${fresh.organizationId}/monitors`, { token: fresh.tokens.readOnly });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });

  it('when monitors exist, then they are listed and fetched; foreign ones are 404', async () => {
    const mon = await createMonitor(stack.orm, {
      organizationId: ws.organizationId,
      serviceId: ws.serviceId,
      name: 'homepage',
      type: 'http',
      target: 'https://example.com',
      intervalSeconds: 60,
    });
    const theirs = await createMonitor(stack.orm, {
      organizationId: other.organizationId,
      serviceId: other.serviceId,
      name: 'x',
      type: 'tcp',
      target: 'db:5432',
      intervalSeconds: 30,
    });
    const list = await request('GET', url('/monitors'), { token: ws.tokens.readOnly });
    expect(list.body.data).toEqual([mon]);
    const one = await request('GET', url(`/monitors/${mon.id}`), { token: ws.tokens.readOnly });
    expect(one.body.data).toEqual(mon);
    expect((await request('GET', url(`/monitors/${theirs.id}`), { token: ws.tokens.readOnly })).status).toBe(404);
  });
});
