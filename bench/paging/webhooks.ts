import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { knexOf } from '../../src/db/knex';
import { createSealer } from '../../src/services/sealing/seal';
import { resolveSecret } from '../../src/stack/secret';
import { valuesRun } from '../harness/load';
import type { PagingBench } from './bench';
import { pagingService, smsResponder } from './seed';

/** The rate and length of the outgoing-webhook phase (issue 22: 20 incidents/s). */
const RATE = 20;
const DURATION_S = 10;

/**
 * Event → delivered: new incidents at a steady 20/s, each paging one responder by SMS, on a
 * workspace with one outgoing webhook taking every event type; per event, from the event's
 * `created_at` (the store's clock, in the change's transaction) to the receiver reading its
 * request. The receiver runs in this process (it answers 204 at once), as the API does.
 */
export async function webhookLatency(p: PagingBench): Promise<string[]> {
  const { b } = p;
  const phase = `outgoing webhooks: event → delivered, ${RATE} incidents/s`;
  const receivedAt = new Map<string, { at: number; createdAt: number; type: string }>();
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string; created_at: string };
      if (!receivedAt.has(event.id)) receivedAt.set(event.id, { at, createdAt: Date.parse(event.created_at), type: event.type });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const { orm } = b.stack;
    const responder = await smsResponder(orm, b.ws);
    const svc = await pagingService(orm, b.ws, { name: `webhooks ${RATE}/s`, ingestBaseUrl: b.stack.ingestUrl, steps: [responder], delays: [60] });
    const sealer = createSealer(resolveSecret(b.stack.config));
    await knexOf(orm)('outgoing_webhooks').insert({
      id: randomUUID(),
      organization_id: b.ws.organizationId,
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/klaxon`,
      description: 'bench receiver',
      service_ids: JSON.stringify([svc.serviceId]),
      secret_sealed: sealer.seal(`whsec_${randomBytes(32).toString('base64')}`),
    });
    await b.drain(phase);
    b.say(`New incidents at a steady ${RATE}/s for ${DURATION_S} s, every event to one outgoing webhook`);
    const { run } = await p.openIncidents(svc.url, b.prefix(`webhooks-${RATE}`), { rate: RATE, durationS: DURATION_S, maxInFlight: 32 });
    await p.waitForSms(responder.phone, run.answered.length, 'the first SMS');
    // Every incident's triggered event, and its page's.
    const expected = run.answered.length * 2;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && [...receivedAt.values()].filter((r) => r.type === 'incident.triggered' || r.type === 'page.delivered').length < expected) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const all = [...receivedAt.values()];
    const latency = (type?: string) => all.filter((r) => !type || r.type === type).map((r) => Math.max(0, r.at - r.createdAt));
    const missing = Math.max(0, expected - all.filter((r) => r.type === 'incident.triggered' || r.type === 'page.delivered').length);
    b.out.figures.push(
      {
        key: `webhooks_${RATE}_event_to_delivered`,
        label: `event → delivered to an outgoing webhook, ${RATE} incidents/s`,
        run: valuesRun(latency(), run, { not_delivered: missing }),
      },
      { key: `webhooks_${RATE}_triggered_to_delivered`, label: '  of which incident.triggered', run: valuesRun(latency('incident.triggered'), run) },
      { key: `webhooks_${RATE}_page_to_delivered`, label: '  of which page.delivered', run: valuesRun(latency('page.delivered'), run) },
    );
    b.out.notes.push(
      `Outgoing webhooks: ${RATE} new incidents/s for ${DURATION_S} s, each paging by SMS, one subscription to every event type of their service; event → delivered is from the event's created_at (written with the change) to the receiver (in the bench process, answering 204) reading the request. ${all.length} events received.`,
    );
    return (await p.probe.incidents(svc.sourceId)).map((i) => i.id);
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}
