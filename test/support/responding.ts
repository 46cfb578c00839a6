import type { SeededWorkspace } from './workspace';
import { alertmanagerBody } from '../faults/payload';
import { memberSession, type DashboardSession } from './dashboard';
import { pagingService, responder } from './paging';
import type { TestStack } from './stack';
import { seedWorkspace } from './workspace';

/** What the responding tests start from: a service paging one responder by email, a Member's session, and a sender. */
export interface PagedService {
  ws: SeededWorkspace;
  ingestUrl: string;
  member: DashboardSession & { organizationId: string; userId: string };
  /** What a Prometheus Alertmanager sends: its alert keyed by fingerprint, firing or resolved; answers the incident. */
  alertmanager: (key: string, action: 'trigger' | 'resolve') => Promise<string | null>;
}

/** A workspace whose service pages one responder by email at once (the dev inbox), with a Member signed in. */
export async function pagedService(stack: TestStack): Promise<PagedService> {
  const ws = await seedWorkspace(stack.orm);
  const paged = await responder(stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] }] }, stack.urls.ingest);
  const member = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
  let n = 0;
  const alertmanager = async (key: string, action: 'trigger' | 'resolve') => {
    const body = alertmanagerBody({ key, action, title: `${key} #${++n}`, startsAt: new Date().toISOString() });
    const res = await fetch(ingestUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 202) throw new Error(`ingestion answered ${res.status}`);
    return ((await res.json()) as { incident_id: string | null }).incident_id;
  };
  return { ws, ingestUrl, member, alertmanager };
}
