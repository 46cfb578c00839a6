/**
 * The suite's workspace, through the same services the CLI uses (the bench's paging seed): a
 * BUSINESS workspace (its SMS quota is far above what a run sends) and, per source, a service
 * whose policy pages one responder by SMS at once, in one step, never repeated. So every incident
 * pages exactly one person once, and any second SMS for it is a doubled page.
 *
 * The first source's service groups (docs/grouping.md): one rule folds all its alerts into one
 * incident per window, so its keys share incidents through the workflow's alert signal. The
 * verdict holds as it is: every event applied once, no alert or page doubled, every firing key on
 * an open incident that paged. The storm guard is off for the suite (klaxon.ts).
 */
import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { pagingService, seedPagingWorkspace, smsResponder } from '../../bench/paging/seed';
import { putGroupingRules } from '../../src/services/grouping/rules';
import { addUser } from '../../src/services/workspace';

/** One source: its ingestion URL secret and who its incidents page. */
export interface SeededSource {
  token: string;
  serviceId: string;
  phone: string;
}

/** Who merges incidents through the dashboard during the load (merges.ts): an admin with no contact method, so nobody pages them. */
export interface SeededMerger {
  email: string;
  password: string;
}

export async function seedFaultWorkspace(
  orm: MikroORM,
  sources: number,
  ingestBaseUrl: string,
): Promise<{ organizationId: string; sources: SeededSource[]; merger: SeededMerger }> {
  const ws = await seedPagingWorkspace(orm);
  const seeded: SeededSource[] = [];
  for (let i = 0; i < sources; i++) {
    const responder = await smsResponder(orm, ws);
    // The step's delay only matters after the last step, where nothing follows.
    const service = await pagingService(orm, ws, { name: `faults ${i}`, ingestBaseUrl, steps: [responder], delays: [60] });
    seeded.push({ token: service.url.slice(service.url.lastIndexOf('/') + 1), serviceId: service.serviceId, phone: responder.phone });
  }
  await putGroupingRules(orm, {
    organizationId: ws.organizationId,
    serviceId: seeded[0].serviceId,
    rules: [
      {
        name: 'fault suite fold',
        match: [{ field: 'labels.alertname', op: 'equals', value: 'FaultSuite' }],
        group_by: ['labels.severity'],
        window_seconds: 600,
        page_after: null,
      },
    ],
  });
  const merger = { email: `faults-merger-${randomBytes(4).toString('hex')}@example.test`, password: randomBytes(18).toString('base64url') };
  await addUser(orm, { organizationId: ws.organizationId, email: merger.email, password: merger.password, role: 'ACCOUNT_ADMIN', verified: true });
  return { organizationId: ws.organizationId, sources: seeded, merger };
}
