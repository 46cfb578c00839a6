import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { addUser, createService } from '../../src/services/workspace';
import { addContactMethod, addNotificationRule, createEscalationPolicy, setServicePolicy } from '../../src/services/paging';
import { createSource } from '../../src/services/ingest';
import { seedWorkspace, type BenchWorkspace } from '../harness/workspace';

/**
 * The paging phases' workspace. BUSINESS, not the PRO of the other phases: one responder takes
 * up to 1,000 SMS in a phase, and PRO's 300 per user per month would send the rest by email.
 */
export function seedPagingWorkspace(orm: MikroORM): Promise<BenchWorkspace> {
  return seedWorkspace(orm, { name: 'Bench paging', plan: 'BUSINESS', teamName: 'Bench paging on-call', adminPrefix: 'bench-pager' });
}

/** A member paged by SMS at once (rule delay 0) on a number of their own. */
export interface SmsResponder {
  id: string;
  email: string;
  phone: string;
}

let phones = 0;

export async function smsResponder(orm: MikroORM, ws: BenchWorkspace): Promise<SmsResponder> {
  const user = await addUser(orm, {
    organizationId: ws.organizationId,
    email: `bench-responder-${randomUUID().slice(0, 8)}@example.test`,
    password: 'a long bench password',
    role: 'MEMBER',
    verified: true,
  });
  // Distinct numbers: reply codes are kept per number, and the bench tells steps apart by recipient.
  const phone = `+1555${String(1_000_000 + process.pid * 10 + ++phones).slice(-7)}`;
  const contact = await addContactMethod(orm, { email: user.email, type: 'sms', address: phone });
  await addNotificationRule(orm, { email: user.email, contactMethodId: contact.id, delaySeconds: 0 });
  return { id: user.id, email: user.email, phone };
}

/** A service paging one responder per step, step i waiting `delays[i]` s before the next, and the ingestion URL of its source. */
export async function pagingService(
  orm: MikroORM,
  ws: BenchWorkspace,
  opts: { name: string; ingestBaseUrl: string; steps: Array<{ id: string }>; delays: number[] },
): Promise<{ serviceId: string; sourceId: string; url: string }> {
  const service = await createService(orm, { organizationId: ws.organizationId, teamId: ws.teamId, name: `bench paging: ${opts.name}` });
  const steps = opts.steps.map((r, i) => ({ delay_seconds: opts.delays[i], targets: [{ type: 'user' as const, id: r.id }] }));
  const policy = await createEscalationPolicy(orm, { organizationId: ws.organizationId, name: `bench ${opts.name}`, steps, repeat: 0 });
  await setServicePolicy(orm, { serviceId: service.id, policyId: policy.id });
  const source = await createSource(orm, {
    organizationId: ws.organizationId,
    serviceId: service.id,
    name: `bench paging ${opts.name}`,
    ingestBaseUrl: opts.ingestBaseUrl,
  });
  return { serviceId: service.id, sourceId: source.id, url: source.ingest_url };
}
