import { randomBytes, randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { snoozeIncident } from '../../../src/services/incident';
import { createSealer } from '../../../src/services/sealing/seal';
import { request } from '../../support/http';
import { pagingService, responder, trigger } from '../../support/paging';
import { startTestStack, TEST_SECRET, type TestStack } from '../../support/stack';
import { startWebhookReceiver } from '../../support/webhook-receiver';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

// A responder's actions (docs/responding.md) reach outgoing webhooks as feed events of their own.
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { ALLOW_PRIVATE_TARGETS: 'true' } });
});
afterAll(() => stack?.stop());

const sealer = createSealer(TEST_SECRET);

describe('outgoing webhooks hear a responder’s actions', () => {
  it('when a subscription asks for notes and snoozes only, then it gets the note and the snooze, signed, with who acted and what they said, and nothing else', async () => {
    let secret: string | undefined;
    const receiver = await startWebhookReceiver({ secret: () => secret });
    try {
      const ws = await seedWorkspace(stack.orm);
      const paged = await responder(stack.orm, ws.organizationId, 'email');
      const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] }] }, stack.urls.ingest);
      secret = `whsec_${randomBytes(32).toString('base64')}`;
      await knexOf(stack.orm)('outgoing_webhooks').insert({
        id: randomUUID(),
        organization_id: ws.organizationId,
        url: receiver.url,
        event_types: JSON.stringify(['incident.note_added', 'incident.snoozed']),
        secret_sealed: sealer.seal(secret),
      });
      const incidentId = await trigger(ingestUrl, 'Cache cold');
      const v1 = (p: string, body?: unknown) =>
        request('POST', `${stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents/${incidentId}${p}`, { token: ws.tokens.readWrite, body });
      await waitFor(async () => (await knexOf(stack.orm)('incidents').where({ id: incidentId }).first()) !== undefined, 20_000, 'the incident');
      expect((await v1('/notes', { text: 'warming it by hand' })).status).toBe(201);
      expect((await v1('/acknowledge')).status).toBe(200);
      await snoozeIncident(
        { orm: stack.orm, temporal: stack.temporal, taskQueue: stack.taskQueue },
        { organizationId: ws.organizationId, incidentId, actor: { type: 'user', id: ws.admin.id, via: 'dashboard' }, minutes: 20 },
      );

      await waitFor(async () => receiver.received.length >= 2, 20_000, 'two deliveries');
      expect(receiver.received.map((r) => r.event.type)).toEqual(['incident.note_added', 'incident.snoozed']);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      const [note, snooze] = receiver.received.map((r) => r.event);
      expect(note).toMatchObject({ actor: { type: 'user', id: ws.admin.id }, data: { text: 'warming it by hand' }, incident: { id: incidentId } });
      expect(snooze).toMatchObject({ data: { minutes: 20 }, incident: { id: incidentId, status: 'ACKNOWLEDGED' } });
    } finally {
      await receiver.close();
    }
  });
});
