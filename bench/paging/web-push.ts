import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { normaliseAddress } from '../../src/domain/channels';
import { addContactMethod, addNotificationRule } from '../../src/services/paging';
import { addUser } from '../../src/services/workspace';
import { makeTestCert, type TestCert } from '../../src/integrations/testing/tls-cert';
import { startWebPushFake, type FakeSubscription, type WebPushFake } from '../../src/integrations/web-push/testing/wire-fake';
import { valuesRun } from '../harness/load';
import { perS } from '../harness/numbers';
import type { BenchWorkspace } from '../harness/workspace';
import { waitFor } from '../harness/wait';
import type { PagingBench } from './bench';
import type { FirstPageLoad } from './first-page';
import { pagingService } from './seed';

/**
 * The browser push service of the paging phases: src/integrations/web-push/testing/wire-fake.ts in this process
 * (as the outgoing-webhook receiver), over HTTPS with a throw-away certificate the stack trusts
 * through WEB_PUSH_CA_FILE; it checks each push's VAPID JWT and decrypts it, after stamping its arrival.
 */
export class WebPushService {
  private constructor(
    readonly fake: WebPushFake,
    private readonly cert: TestCert,
  ) {}

  static async start(): Promise<WebPushService> {
    const cert = makeTestCert();
    return new WebPushService(await startWebPushFake({ cert }), cert);
  }

  /** What the stack needs to reach it (the bench stack allows private targets already). */
  get env(): Record<string, string> {
    return { WEB_PUSH_CA_FILE: this.cert.certFile };
  }

  async close(): Promise<void> {
    await this.fake.close();
    this.cert.remove();
  }
}

/** A member whose one contact method is a browser subscription on the fake, paged at once. */
async function pushResponder(orm: MikroORM, ws: BenchWorkspace, sub: FakeSubscription): Promise<{ id: string }> {
  const user = await addUser(orm, {
    organizationId: ws.organizationId,
    email: `bench-browser-${randomUUID().slice(0, 8)}@example.test`,
    password: 'a long bench password',
    role: 'MEMBER',
    verified: true,
  });
  const address = normaliseAddress('push_web', JSON.stringify(sub.toJSON()));
  if (!address.ok) throw new Error(address.message);
  const contact = await addContactMethod(orm, { email: user.email, type: 'push_web', address: address.address }, { allowPrivateTargets: true });
  await addNotificationRule(orm, { email: user.email, contactMethodId: contact.id, delaySeconds: 0 });
  return { id: user.id };
}

/**
 * 202 → first push: as 202 → first SMS (first-page.ts), on a service whose one responder's one
 * rule is a browser push at delay 0; per event, from the load generator reading its 202 to the
 * push service fake reading the push (matched to the incident by the decrypted payload's incident_id).
 */
export async function firstPushSteady(p: PagingBench, push: WebPushService, { rate, durationS }: FirstPageLoad): Promise<string[]> {
  const { b, probe } = p;
  const phase = `paging: 202 → first web push, ${rate}/s`;
  const { orm, ingestUrl } = b.stack;
  const sub = push.fake.subscribe();
  const responder = await pushResponder(orm, b.ws, sub);
  const svc = await pagingService(orm, b.ws, { name: `first push ${rate}/s`, ingestBaseUrl: ingestUrl, steps: [responder], delays: [60] });
  const start = await b.drain(phase);
  b.say(`New incidents paging by web push at a steady ${rate}/s for ${durationS} s`);
  const { run, start: atStart } = await p.openIncidents(svc.url, b.prefix(`paging-push-${rate}`), { rate, durationS, maxInFlight: 32 });
  const mine = () => push.fake.requests.filter((r) => r.subscriptionId === sub.id);
  const arrived = await waitFor(
    async () => mine().length,
    (n) => n >= run.answered.length,
    (n) => n,
    (n) => b.say(`  waiting for the first push: ${n} of ${run.answered.length} arrived`),
  );
  p.cpu(`paging ${rate}/s: load and first web push`, atStart, await p.mark(), run.cpuMs);

  const incidents = await probe.incidents(svc.sourceId);
  const titleOf = new Map(incidents.map((i) => [i.id, i.title]));
  const pushAt = new Map<string, number>();
  let invalid = 0;
  for (const r of mine()) {
    if (!r.vapid.valid || r.decryptError) invalid++;
    const title = titleOf.get(r.payload?.incident_id);
    if (title && !pushAt.has(title)) pushAt.set(title, r.at);
  }
  const total: number[] = [];
  for (const [title, answeredAt] of run.answered) {
    const at = pushAt.get(title);
    if (at !== undefined) total.push(Math.max(0, at - answeredAt));
  }
  const missing = run.answered.length - total.length;
  b.out.figures.push({
    key: `paging_202_to_first_push_${rate}ps_ms`,
    label: `202 → first web push at the push service, ${rate}/s`,
    run: valuesRun(total, run, { no_push: missing, invalid_push: invalid }),
  });
  const last = Math.max(...pushAt.values());
  b.out.rates.push({
    key: `paging_first_push_${rate}ps_per_s`,
    label: `first web push sent, ${rate}/s offered`,
    value: perS(total.length, last - run.first2xxAt),
    unit: 'incidents/s',
    detail: `${total.length} pushes, first 202 → last push ${((last - run.first2xxAt) / 1000).toFixed(1)} s`,
  });
  b.phase(phase, {
    sent: Math.round(rate * durationS),
    answered_2xx: run.answered.length,
    statuses: run.statuses,
    incidents: incidents.length,
    pushes_matched: total.length,
    pushes_invalid: invalid,
    push_wait_complete: arrived.complete,
  });
  b.out.notes.push(
    `202 → first web push at ${rate}/s (${start}): as 202 → first SMS, the one rule a browser push (push_web, the real web-push library: aes128gcm, VAPID ES256) to the push service fake in the bench process over HTTPS; ` +
      `arrival is when the fake has read the request, before it checks the VAPID JWT and decrypts (${invalid ? `${invalid} failed those checks` : 'every push passed both'}). ` +
      `${missing ? `${missing} accepted events got no push within the wait.` : 'Every accepted event got its push.'}`,
  );
  return incidents.map((i) => i.id);
}
