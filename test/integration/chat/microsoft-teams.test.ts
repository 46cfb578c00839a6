import { knexOf } from '../../../src/db/knex';
import type { Plan } from '../../../src/domain/plans';
import { retentionCutoffs } from '../../../src/domain/retention';
import { setServiceChat } from '../../../src/services/chat/service-chat';
import { sendTeamsTestCard } from '../../../src/integrations/microsoft-teams/test-card';
import { purgeExpired } from '../../../src/services/retention/purge';
import { signIncidentAction } from '../../../src/services/response/action-tokens';
import { createSealer } from '../../../src/services/sealing/seal';
import { startTeamsWebhook, type TeamsPost, type TeamsWebhookFake } from '../../../src/integrations/microsoft-teams/testing/wire-fake';
import { dashboard, expectDashboardError, memberSession } from '../../support/dashboard';
import { request } from '../../support/http';
import { notificationsOf, pagingService, responder, statusOf, timelineOf, trigger } from '../../support/paging';
import { startTestStack, TEST_SECRET, type TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

let stack: TestStack;
let teams: TeamsWebhookFake;
beforeAll(async () => {
  // The fake Teams receiver listens on 127.0.0.1.
  stack = await startTestStack({ env: { ALLOW_PRIVATE_TARGETS: 'true' } });
  teams = await startTeamsWebhook();
});
afterAll(async () => {
  await teams?.close();
  await stack?.stop();
});
afterEach(() => teams.set({ kind: 'ok' }));

const sealer = createSealer(TEST_SECRET);
const db = () => knexOf(stack.orm);

/** A workspace paging one responder by email, whose service posts to `url` in Teams; its ingestion URL. */
async function microsoftTeamsWorkspace(url: string | null, plan: Plan = 'PRO') {
  // Seeded on PRO (its API tokens need it), then moved to `plan`: a downgraded workspace.
  const ws = await seedWorkspace(stack.orm);
  if (plan !== 'PRO') await db()('organizations').where({ id: ws.organizationId }).update({ plan });
  const paged = await responder(stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] }] }, stack.urls.ingest);
  await db()('services')
    .where({ id: ws.serviceId })
    .update({ name: `Checkout ${ws.serviceId.slice(0, 6)}` });
  if (url) await setServiceChat(stack.orm, sealer, { organizationId: ws.organizationId, serviceId: ws.serviceId }, { teamsWebhookUrl: url });
  return { ws, ingestUrl, serviceName: `Checkout ${ws.serviceId.slice(0, 6)}` };
}

const numberOf = async (incidentId: string): Promise<number> => (await db()('incidents').where({ id: incidentId }).first('number')).number;
/** The cards of one incident (by its number in the headline) of one service, in the order received. */
const cardsOf = (number: number, serviceName: string) =>
  teams.posts.filter((p) => p.text.includes(`· #${number}\n`) && p.text.includes(`Service: ${serviceName}`));
const headline = (p: TeamsPost) => p.text.split('\n')[0];
const buttonUrl = (p: TeamsPost, title: string) => p.card.actions.find((a) => a.title === title)?.url;
const deliveriesOf = (serviceId: string) => db()('feed_deliveries').where({ consumer: 'microsoft-teams', target_id: serviceId }).orderBy('lane_seq');
const lifecycle = (organizationId: string, incidentId: string, token: string, op: 'acknowledge' | 'resolve') =>
  request('POST', `${stack.urls.app}/api/v1/organizations/${organizationId}/incidents/${incidentId}/${op}`, { token });
const html = async (method: 'GET' | 'POST', url: string) => {
  const res = await fetch(url, { method, redirect: 'manual' });
  return { status: res.status, text: await res.text() };
};

describe('Microsoft Teams cards from the incident feed', () => {
  it('when an incident opens and is acknowledged, then a schema-valid card for each reaches Teams with the title, severity, service and status, and the URL is never logged', async () => {
    const { ws, ingestUrl, serviceName } = await microsoftTeamsWorkspace(teams.url);
    const incidentId = await trigger(ingestUrl, 'Checkout is down');
    const number = await numberOf(incidentId);
    const [opened] = await waitFor(async () => cardsOf(number, serviceName).length >= 1 && cardsOf(number, serviceName), 20_000, 'the new-incident card');
    expect(opened.errors).toEqual([]);
    expect(opened.valid).toBe(true);
    expect(opened.card).toMatchObject({ type: 'AdaptiveCard', version: '1.4', $schema: 'http://adaptivecards.io/schemas/adaptive-card.json' });
    expect(opened.text).toContain(`New incident · #${number}`);
    expect(opened.text).toContain('Checkout is down');
    expect(opened.text).toContain('Severity: CRITICAL');
    expect(opened.text).toContain('Status: TRIGGERED');
    expect(opened.card.actions.map((a) => a.title)).toEqual(['Acknowledge', 'Resolve', 'Open in Klaxon']);
    expect(buttonUrl(opened, 'Open in Klaxon')).toBe(`${stack.urls.app}/incidents/${incidentId}`);
    expect(buttonUrl(opened, 'Acknowledge')).toMatch(new RegExp(`^${stack.urls.app}/hooks/chat/action/[\\w-]+\\.[\\w-]+$`));

    expect((await lifecycle(ws.organizationId, incidentId, ws.tokens.readWrite, 'acknowledge')).status).toBe(200);
    const cards = await waitFor(async () => cardsOf(number, serviceName).length >= 2 && cardsOf(number, serviceName), 20_000, 'the acknowledgement card');
    expect(cards.map(headline)).toEqual([`New incident · #${number}`, `Acknowledged · #${number}`]);
    expect(cards[1].valid).toBe(true);
    expect(cards[1].text).toContain('Status: ACKNOWLEDGED');
    expect(cards[1].card.actions.map((a) => a.title)).toEqual(['Resolve', 'Open in Klaxon']);
    // Recorded just after Teams answered.
    const log = await waitFor(
      async () => {
        const rows = await deliveriesOf(ws.serviceId);
        return rows.every((d) => d.delivered_at !== null) && rows;
      },
      10_000,
      'both recorded delivered',
    );
    expect(log.map((d) => [d.type, d.attempts, d.last_status_code, d.last_error])).toEqual([
      ['incident.triggered', 1, 202, null],
      ['incident.acknowledged', 1, 202, null],
    ]);
    expect(stack.logs.lines.some((l) => l.includes('secret-signature'))).toBe(false);
  });

  it('when Teams is down while incidents open and change, then paging goes on, and once it is back every card arrives, in order per incident, none lost', async () => {
    const { ws, ingestUrl, serviceName } = await microsoftTeamsWorkspace(teams.url);
    teams.set({ kind: 'down' });
    const incidents = [await trigger(ingestUrl, 'Disk full on db-1'), await trigger(ingestUrl, 'Disk full on db-2')];
    for (const id of incidents) expect((await lifecycle(ws.organizationId, id, ws.tokens.readWrite, 'acknowledge')).status).toBe(200);
    expect((await lifecycle(ws.organizationId, incidents[0], ws.tokens.readWrite, 'resolve')).status).toBe(200);
    await waitFor(
      async () => {
        const rows = await deliveriesOf(ws.serviceId);
        return rows.length === 5 && rows.filter((r) => r.type === 'incident.triggered').every((r) => r.attempts >= 1) && rows;
      },
      20_000,
      'the cards queued and the first attempts failed',
    );
    // Paging never waited for Teams: the responder was paged for both incidents.
    for (const id of incidents) await waitFor(async () => (await notificationsOf(stack.orm, id)).length > 0, 20_000, 'the page');
    const failed = (await deliveriesOf(ws.serviceId)).filter((r) => r.attempts > 0);
    expect(failed.every((r) => r.delivered_at === null && r.parked_at === null && r.next_attempt_at !== null && r.last_error)).toBe(true);
    // Only each incident's first card was tried: later ones wait behind it.
    expect(new Set(failed.map((r) => r.type))).toEqual(new Set(['incident.triggered']));

    teams.set({ kind: 'ok' });
    // Their retry is 5 s away: bring it forward, as time would.
    await db()('feed_deliveries')
      .where({ consumer: 'microsoft-teams', target_id: ws.serviceId })
      .whereNull('delivered_at')
      .update({ next_attempt_at: new Date() });
    const numbers = await Promise.all(incidents.map(numberOf));
    await waitFor(async () => cardsOf(numbers[0], serviceName).length + cardsOf(numbers[1], serviceName).length >= 5, 20_000, 'every card');
    expect(cardsOf(numbers[0], serviceName).map(headline)).toEqual([
      `New incident · #${numbers[0]}`,
      `Acknowledged · #${numbers[0]}`,
      `Resolved · #${numbers[0]}`,
    ]);
    expect(cardsOf(numbers[1], serviceName).map(headline)).toEqual([`New incident · #${numbers[1]}`, `Acknowledged · #${numbers[1]}`]);
    expect([...cardsOf(numbers[0], serviceName), ...cardsOf(numbers[1], serviceName)].every((p) => p.valid)).toBe(true);
    await sleep(500);
    expect(cardsOf(numbers[0], serviceName).length + cardsOf(numbers[1], serviceName).length).toBe(5);
    await waitFor(async () => (await deliveriesOf(ws.serviceId)).every((d) => d.delivered_at !== null), 10_000, 'every card recorded delivered');
  });

  it('when Teams refuses a card for good (404), then it is given up at once, not retried', async () => {
    const { ws, ingestUrl } = await microsoftTeamsWorkspace(teams.url);
    teams.set({ kind: 'fail', status: 404 });
    await trigger(ingestUrl);
    const [row] = await waitFor(
      async () => {
        const rows = await deliveriesOf(ws.serviceId);
        return rows[0]?.parked_at ? rows : undefined;
      },
      20_000,
      'the card given up',
    );
    expect(row).toMatchObject({ attempts: 1, last_status_code: 404, delivered_at: null, next_attempt_at: null });
    expect(row.last_error).not.toContain('127.0.0.1');
  });

  it('when the workspace is on FREE, then its cards are recorded skipped and never sent', async () => {
    const { ws, ingestUrl } = await microsoftTeamsWorkspace(teams.url, 'FREE');
    const before = teams.requests;
    await trigger(ingestUrl);
    const [row] = await waitFor(
      async () => {
        const rows = await deliveriesOf(ws.serviceId);
        return rows.length > 0 && rows;
      },
      20_000,
      'the skipped card',
    );
    expect(row).toMatchObject({ attempts: 0, delivered_at: null, last_error: expect.stringMatching(/^skipped/) });
    expect(row.skipped_at).not.toBeNull();
    expect(row.parked_at).not.toBeNull();
    await sleep(1000);
    expect(teams.requests).toBe(before);
  });

  it('when a service’s stored URL points at a cloud metadata address, then the guard refuses it at send time and nothing is sent there', async () => {
    const { ws, ingestUrl } = await microsoftTeamsWorkspace('http://169.254.169.254/latest/meta-data/');
    await trigger(ingestUrl);
    const [row] = await waitFor(
      async () => {
        const rows = await deliveriesOf(ws.serviceId);
        return rows[0]?.attempts > 0 && rows;
      },
      20_000,
      'the refused attempt',
    );
    expect(row).toMatchObject({ delivered_at: null, last_status_code: null, last_error: 'target resolves to a cloud metadata address' });
  });
});

describe('the action links of a Microsoft Teams card', () => {
  /** An incident whose new-incident card arrived: its links. */
  async function cardedIncident() {
    const { ws, ingestUrl, serviceName } = await microsoftTeamsWorkspace(teams.url);
    const incidentId = await trigger(ingestUrl, 'Payments <failing> & retrying');
    const number = await numberOf(incidentId);
    const [card] = await waitFor(async () => cardsOf(number, serviceName).length >= 1 && cardsOf(number, serviceName), 20_000, 'the card');
    return { ws, incidentId, number, serviceName, acknowledge: buttonUrl(card, 'Acknowledge')!, resolve: buttonUrl(card, 'Resolve')! };
  }

  it('when the Acknowledge link is opened, then nothing changes; when confirmed, the incident is acknowledged via Microsoft Teams once, and a second use changes nothing', async () => {
    const { incidentId, number, serviceName, acknowledge } = await cardedIncident();
    const shown = await html('GET', acknowledge);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`Acknowledge incident #${number}?`);
    expect(shown.text).toContain('Payments &lt;failing&gt; &amp; retrying');
    expect(shown.text).toContain('<form method="post">');
    // The same page as a paging email's link (docs/action-page.md): the incident's service, and a button naming the action and number.
    expect(shown.text).toContain(`<dd>${serviceName}</dd>`);
    expect(shown.text).toContain(`<button type="submit">Acknowledge #${number}</button>`);
    await sleep(300);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');

    const acted = await html('POST', acknowledge);
    expect(acted.status).toBe(200);
    expect(acted.text).toContain('Done');
    expect(acted.text).toContain(`href="/incidents/${incidentId}">Open incident #${number}</a>`);
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    const entry = (await timelineOf(stack.orm, incidentId)).find((e) => e.to_status === 'ACKNOWLEDGED');
    expect(entry).toMatchObject({ actor_type: 'system', actor_id: null, via: 'Microsoft Teams link' });
    const cards = await waitFor(async () => cardsOf(number, serviceName).length >= 2 && cardsOf(number, serviceName), 20_000, 'the acknowledgement card');
    expect(cards[1].text).toContain('By: Microsoft Teams link');

    const again = await html('POST', acknowledge);
    expect(again.status).toBe(409);
    expect(again.text).toContain('Nothing changed');
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
  });

  it('when the incident was resolved meanwhile, then its Acknowledge link answers 409 Nothing changed', async () => {
    const { ws, incidentId, acknowledge, resolve } = await cardedIncident();
    expect((await lifecycle(ws.organizationId, incidentId, ws.tokens.readWrite, 'resolve')).status).toBe(200);
    const res = await html('POST', acknowledge);
    expect(res.status).toBe(409);
    expect(res.text).toContain('Nothing changed');
    expect((await html('POST', resolve)).status).toBe(409);
    expect(await statusOf(stack.orm, incidentId)).toBe('RESOLVED');
  });

  it('when a token is forged, expired, or a link of another kind, then it is refused and nothing changes', async () => {
    const { incidentId } = await cardedIncident();
    const now = Math.floor(Date.now() / 1000);
    const forged = signIncidentAction('another-secret-that-is-at-least-32-characters', { incidentId, action: 'acknowledge', expiresAt: now + 3600 });
    const expired = signIncidentAction(TEST_SECRET, { incidentId, action: 'acknowledge', expiresAt: now - 1 });
    for (const token of [forged, expired, 'not-a-token', 'x'.repeat(600)]) {
      const url = `${stack.urls.app}/hooks/teams/action/${token}`;
      expect((await html('GET', url)).status).toBe(403);
      const res = await html('POST', url);
      expect(res.status).toBe(403);
      expect(res.text).toContain('not valid or has expired');
    }
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
  });

  it('when the Resolve link is confirmed, then the incident is resolved via Microsoft Teams', async () => {
    const { incidentId, resolve } = await cardedIncident();
    expect((await html('POST', resolve)).status).toBe(200);
    expect(await statusOf(stack.orm, incidentId)).toBe('RESOLVED');
    expect((await timelineOf(stack.orm, incidentId)).at(-1)).toMatchObject({ to_status: 'RESOLVED', via: 'Microsoft Teams link' });
  });
});

describe('POST /api/services/{id}/chat/teams/test', () => {
  const testCardOf = async (url: string | null, opts: { plan?: Plan; role?: 'ACCOUNT_ADMIN' | 'MEMBER' } = {}) => {
    const { ws } = await microsoftTeamsWorkspace(url, opts.plan);
    const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, opts.role ?? 'ACCOUNT_ADMIN');
    return { ws, res: await dashboard(stack.urls.app, 'POST', `/services/${ws.serviceId}/chat/teams/test`, { session }) };
  };

  it('when Teams accepts, then delivered true with its status, and the card is schema-valid', async () => {
    const before = teams.posts.filter((p) => p.text.includes('Klaxon test message')).length;
    const { res } = await testCardOf(teams.url);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ delivered: true, status_code: 202, error: null });
    const tests = teams.posts.filter((p) => p.text.includes('Klaxon test message'));
    expect(tests).toHaveLength(before + 1);
    expect(tests.at(-1)!.valid).toBe(true);
  });

  it('when Teams answers 500, then delivered false with status_code 500, and the error does not echo the URL', async () => {
    teams.set({ kind: 'fail', status: 500 });
    const { res } = await testCardOf(teams.url);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ delivered: false, status_code: 500, error: 'unexpected status 500' });
    expect(JSON.stringify(res.body)).not.toContain('secret-signature');
  });

  it('when the service has no Teams URL, then 409 teams_not_configured', async () => {
    expectDashboardError((await testCardOf(null)).res, 409, 'teams_not_configured');
  });

  it('when the workspace is on FREE, then 403 plan_limit_reached and nothing is sent', async () => {
    const before = teams.requests;
    expectDashboardError((await testCardOf(teams.url, { plan: 'FREE' })).res, 403, 'plan_limit_reached');
    expect(teams.requests).toBe(before);
  });

  it('when a Member asks, then 403 forbidden (services.manage)', async () => {
    expectDashboardError((await testCardOf(teams.url, { role: 'MEMBER' })).res, 403, 'forbidden');
  });

  it('when the URL is a private address and private targets are not allowed, then the guard refuses it at send time', async () => {
    const { ws } = await microsoftTeamsWorkspace(teams.url);
    const before = teams.requests;
    const result = await sendTeamsTestCard({ orm: stack.orm, sealer, appUrl: stack.urls.app, allowPrivate: false }, { id: ws.serviceId, name: 'Checkout' });
    expect(result).toEqual({ delivered: false, status_code: null, error: 'target resolves to a private address' });
    expect(teams.requests).toBe(before);
  });
});

describe('retention', () => {
  it('when Teams deliveries are older than 30 days, then the purge removes the finished ones and keeps one still being tried', async () => {
    const { ws } = await microsoftTeamsWorkspace(teams.url);
    const old = new Date(Date.now() - 31 * 24 * 3_600_000);
    const row = (over: object) => ({
      id: crypto.randomUUID(),
      consumer: 'microsoft-teams',
      target_id: ws.serviceId,
      organization_id: ws.organizationId,
      event_id: crypto.randomUUID(),
      incident_id: crypto.randomUUID(),
      type: 'incident.triggered',
      event: '{}',
      created_at: old,
      // Never due: the stack's deliverer leaves it alone.
      next_attempt_at: new Date(Date.now() + 3_600_000),
      ...over,
    });
    await db()('feed_deliveries').insert([row({ delivered_at: old }), row({ parked_at: old }), row({})]);
    const { deleted } = await purgeExpired(db(), retentionCutoffs(new Date()));
    expect(deleted.feed_deliveries).toBe(2);
    expect(await deliveriesOf(ws.serviceId)).toHaveLength(1);
  });
});
