import { randomBytes } from 'node:crypto';
import { addContactMethod } from '../../../src/services/paging/contacts';
import { addNotificationRule } from '../../../src/services/paging/notification-rules';
import { createSource } from '../../../src/services/ingest/sources';
import { addTeamMember } from '../../../src/services/workspace/team-members';
import { startSendgridFake, type SendgridFake } from '../../../src/integrations/sendgrid/testing/wire-fake';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { notificationsOf, phoneNumber, statusOf, timelineOf, startPagingStack } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { addMember, seedWorkspace } from '../../support/workspace';

let stack: TestStack;
let twilio: TwilioFake;
let sendgrid: SendgridFake;

beforeAll(async () => {
  const apiKey = `SG.${randomBytes(12).toString('hex')}`;
  sendgrid = await startSendgridFake({ apiKey });
  ({ stack, twilio } = await startPagingStack({ SENDGRID_API_KEY: apiKey, SENDGRID_API_BASE_URL: sendgrid.url, EMAIL_FROM: 'Klaxon <pager@klaxon.test>' }));
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close(), sendgrid?.close()]));

/** A team member whose rules page them by SMS, voice and email at once (or only `rules`), and a Form B source listing `channels`. */
async function formBSource(channels: string[], rules: Array<'sms' | 'voice' | 'email'> = ['sms', 'voice', 'email']) {
  const ws = await seedWorkspace(stack.orm);
  const member = await addMember(stack.orm, ws.organizationId, 'MEMBER');
  await addTeamMember(stack.orm, { teamId: ws.teamId, email: member.email });
  const phone = phoneNumber();
  const voice = phoneNumber();
  const contacts = {
    sms: await addContactMethod(stack.orm, { email: member.email, type: 'sms', address: phone }),
    voice: await addContactMethod(stack.orm, { email: member.email, type: 'voice', address: voice }),
    email: await addContactMethod(stack.orm, { email: member.email, type: 'email', address: member.email }),
  };
  for (const type of rules) await addNotificationRule(stack.orm, { email: member.email, contactMethodId: contacts[type].id, delaySeconds: 0 });
  const source = await createSource(stack.orm, {
    organizationId: ws.organizationId,
    serviceId: ws.serviceId,
    name: 'Form B',
    ingestBaseUrl: stack.urls.ingest,
    channels,
  });
  return { member, phone, voice, url: source.ingest_url };
}

async function send(url: string, severity: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: `Disk full ${randomBytes(3).toString('hex')}`, severity }),
  });
  expect(res.status).toBe(202);
  return ((await res.json()) as { incident_id: string }).incident_id;
}

describe("Form B sources page people by their rules on the source's channels, by severity", () => {
  it('when a critical event arrives, then the owning team is paged by SMS, voice call and email; the email links acknowledge', async () => {
    const { member, phone, voice, url } = await formBSource(['sms', 'voice', 'email']);
    const incidentId = await send(url, 'critical');
    await twilio.waitFor('message', (m) => m.params.To === phone);
    await twilio.waitFor('call', (c) => c.params.To === voice);
    const email = await sendgrid.waitFor((r) => r.body.personalizations?.[0]?.to?.[0]?.email === member.email);
    expect(email.body.from.email).toBe('pager@klaxon.test');
    expect(email.body.subject).toMatch(/^\[CRITICAL\] #\d+ Disk full/);
    const text = email.body.content.find((c: { type: string }) => c.type === 'text/plain').value as string;
    const ackLink = /Acknowledge: (\S+)/.exec(text)![1];
    expect(ackLink.startsWith(`${stack.urls.app}/hooks/page/`)).toBe(true);

    const acted = await fetch(ackLink, { method: 'POST' });
    expect(acted.status).toBe(200);
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    expect((await timelineOf(stack.orm, incidentId)).find((e) => e.to_status === 'ACKNOWLEDGED')).toMatchObject({ actor_id: member.id, via: 'email' });
    const channels = (await notificationsOf(stack.orm, incidentId)).map((n) => n.channel).sort();
    expect(channels).toEqual(['email', 'sms', 'voice']);
  });

  it('when an info event arrives, then only email pages, even though SMS is listed', async () => {
    const { member, phone, url } = await formBSource(['sms', 'email']);
    const incidentId = await send(url, 'info');
    await sendgrid.waitFor((r) => r.body.personalizations?.[0]?.to?.[0]?.email === member.email);
    await waitFor(async () => (await notificationsOf(stack.orm, incidentId)).length === 1 || undefined, 10_000, 'the page record');
    expect(twilio.requests.filter((r) => r.params.To === phone)).toHaveLength(0);
  });

  it("when a person's rules name a channel the webhook does not list, then that rule does not apply; one it lists and they have no rule for pages nobody", async () => {
    // Listed: SMS and email. The member's rules: SMS and voice. Only SMS is both.
    const { member, phone, voice, url } = await formBSource(['sms', 'email'], ['sms', 'voice']);
    const incidentId = await send(url, 'critical');
    await twilio.waitFor('message', (m) => m.params.To === phone);
    await waitFor(async () => (await notificationsOf(stack.orm, incidentId)).length > 0 || undefined, 10_000, 'the page record');
    expect((await notificationsOf(stack.orm, incidentId)).map((n) => [n.channel, n.user_id])).toEqual([['sms', member.id]]);
    expect(twilio.requests.filter((r) => r.params.To === voice)).toHaveLength(0);
    expect(sendgrid.requests.filter((r) => r.body.personalizations?.[0]?.to?.[0]?.email === member.email)).toHaveLength(0);
  });

  it('when a person has no rule on any listed channel, then they are still paged at once on those channels (the limit never leaves anyone unpaged)', async () => {
    // An existing webhook listing SMS only; the member's only rule is voice.
    const { member, phone, voice, url } = await formBSource(['sms'], ['voice']);
    const incidentId = await send(url, 'critical');
    await twilio.waitFor('message', (m) => m.params.To === phone);
    await waitFor(async () => (await notificationsOf(stack.orm, incidentId)).length > 0 || undefined, 10_000, 'the page record');
    expect((await notificationsOf(stack.orm, incidentId)).map((n) => [n.channel, n.user_id])).toEqual([['sms', member.id]]);
    expect(twilio.requests.filter((r) => r.params.To === voice)).toHaveLength(0);
  });

  it('when a source is created with an unknown channel, then it is refused and nothing is stored', async () => {
    const ws = await seedWorkspace(stack.orm);
    await expect(
      createSource(stack.orm, {
        organizationId: ws.organizationId,
        serviceId: ws.serviceId,
        name: 'bad',
        ingestBaseUrl: stack.urls.ingest,
        channels: ['sms', 'pigeon'],
      }),
    ).rejects.toThrow('channels: unknown channel "pigeon"; use sms, voice, email or push');
    const rows = await stack.orm.em.fork().getKnex()('alert_sources').where({ organization_id: ws.organizationId, name: 'bad' });
    expect(rows).toHaveLength(0);
  });
});

describe('a service without an escalation policy', () => {
  it("when an incident opens, then the owning team's members are paged once, by their own rules", async () => {
    const ws = await seedWorkspace(stack.orm);
    const member = await addMember(stack.orm, ws.organizationId, 'MEMBER');
    await addTeamMember(stack.orm, { teamId: ws.teamId, email: member.email });
    const phone = phoneNumber();
    const contact = await addContactMethod(stack.orm, { email: member.email, type: 'sms', address: phone });
    await addNotificationRule(stack.orm, { email: member.email, contactMethodId: contact.id, delaySeconds: 0 });
    const source = await createSource(stack.orm, {
      organizationId: ws.organizationId,
      serviceId: ws.serviceId,
      name: 'plain',
      ingestBaseUrl: stack.urls.ingest,
    });
    const incidentId = await send(source.ingest_url, 'high');
    await twilio.waitFor('message', (m) => m.params.To === phone);
    expect((await notificationsOf(stack.orm, incidentId)).map((n) => [n.channel, n.user_id])).toEqual([['sms', member.id]]);
  });
});
