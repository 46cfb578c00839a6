import { knexOf } from '../../../src/db/knex';
import { CHANNEL_IDS } from '../../../src/domain/channels';
import { addContactMethod } from '../../../src/services/paging/contacts';
import { dashboard, expectDashboardError, memberSession } from '../../support/dashboard';
import { phoneNumber, startPagingStack } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';

// The dashboard's channel lists come from GET /api/channels (the integrations' declarations); test sends go through each channel's sender.
let stack: TestStack;
let twilio: TwilioFake;
let ws: SeededWorkspace;

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
  ws = await seedWorkspace(stack.orm);
});
afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

const api = (method: string, p: string, opts: Parameters<typeof dashboard>[3] = {}) => dashboard(stack.urls.app, method, p, opts);

describe('GET /api/channels', () => {
  it('when a member asks, then every channel comes in registry order with its address wording and whether drills and tests use it', async () => {
    const me = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
    const res = await api('GET', '/channels', { session: me });
    expect(res.status).toBe(200);
    const channels = res.body.data.channels as Array<{ id: string; label: string; address_label: string; drillable: boolean; testable: boolean }>;
    expect(channels.map((c) => c.id)).toEqual([...CHANNEL_IDS]);
    expect(channels.find((c) => c.id === 'voice')).toMatchObject({ label: 'Voice call', address_label: 'Phone number', drillable: true, testable: true });
    // Slack DMs render an incident's buttons: neither drilled nor tested.
    expect(channels.find((c) => c.id === 'slack')).toMatchObject({ drillable: false, testable: false });
    expect(channels.find((c) => c.id === 'pushover')).toMatchObject({ label: 'Pushover', drillable: true, testable: true });
  });

  it('when nobody is signed in, then it is refused', async () => {
    const res = await api('GET', '/channels');
    expect(res.status).toBe(401);
  });
});

describe('POST /api/contact-methods/{id}/test', () => {
  it('when an SMS contact method is tested, then a test text goes through Twilio saying it is a test, without a reply code', async () => {
    const me = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
    const number = phoneNumber();
    const added = await api('POST', '/contact-methods', { session: me, body: { type: 'sms', address: number } });
    expect(added.status).toBe(201);
    // A phone number is verified by the code texted to it.
    const code = /(\d{6})/.exec((await twilio.waitFor('message', (m) => m.params.To === number)).params.Body)![1];
    expect((await api('POST', `/contact-methods/${added.body.data.id}/verify`, { session: me, body: { code } })).status).toBe(200);
    const res = await api('POST', `/contact-methods/${added.body.data.id}/test`, { session: me });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ delivered: true, provider: 'twilio', error: null });
    const text = await twilio.waitFor('message', (m) => m.params.To === number && /Klaxon test/.test(m.params.Body));
    expect(text.params.Body).not.toMatch(/Reply \d+A/);
  });

  it('when a Slack DM contact method is tested, then 409 test_not_supported and nothing is sent', async () => {
    const me = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
    const { email } = await knexOf(stack.orm)('users').select('email').where({ id: me.userId }).first();
    const row = await addContactMethod(stack.orm, { email, type: 'slack', address: 'U0TESTSEND1' });
    const before = (await knexOf(stack.orm)('dev_deliveries').count({ n: '*' }))[0].n;
    expectDashboardError(await api('POST', `/contact-methods/${row.id}/test`, { session: me }), 409, 'test_not_supported');
    expect((await knexOf(stack.orm)('dev_deliveries').count({ n: '*' }))[0].n).toBe(before);
  });
});
