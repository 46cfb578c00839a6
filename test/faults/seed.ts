/**
 * The suite's workspace, through the same services the CLI uses (the bench's paging seed): a
 * BUSINESS workspace (its SMS quota is far above what a run sends) and, per source, a service
 * whose policy pages one responder by SMS at once, in one step, never repeated. So every incident
 * pages exactly one person once, and any second SMS for it is a doubled page.
 */
import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { pagingService, seedPagingWorkspace, smsResponder } from '../../bench/paging/seed';
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
  const merger = { email: `faults-merger-${randomBytes(4).toString('hex')}@example.test`, password: randomBytes(18).toString('base64url') };
  await addUser(orm, { organizationId: ws.organizationId, email: merger.email, password: merger.password, role: 'ACCOUNT_ADMIN', verified: true });
  return { organizationId: ws.organizationId, sources: seeded, merger };
}
