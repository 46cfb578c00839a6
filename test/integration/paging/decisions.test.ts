import { createSource } from '../../../src/services/ingest/sources';
import { knexOf } from '../../../src/db/knex';
import { createSchedule } from '../../../src/services/paging/schedules';
import { addTeamMember } from '../../../src/services/workspace/team-members';
import { createTeam } from '../../../src/services/workspace/workspaces';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { notificationsOf, pagingService, responder, startPagingStack, trigger } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { addMember, seedWorkspace, type SeededWorkspace } from '../../support/workspace';

// docs/architecture.md, "Incidents": every paging decision is a timeline entry with its reason, "nobody to page" included.
let stack: TestStack;
let twilio: TwilioFake;

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

const entries = (incidentId: string) =>
  knexOf(stack.orm)('timeline_entries').select('seq', 'type', 'via', 'message', 'data').where({ incident_id: incidentId }).orderBy('seq');
const decisions = async (incidentId: string, count = 1) =>
  waitFor(
    async () => {
      const found = (await entries(incidentId)).filter((e) => e.type === 'paging_decision');
      return found.length >= count && found;
    },
    20_000,
    `${count} paging decision(s)`,
  );
/** An ingestion URL of the workspace's service, with no escalation policy. */
const sourceWithoutPolicy = async (ws: SeededWorkspace) =>
  (await createSource(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name: 'no policy', ingestBaseUrl: stack.urls.ingest }))
    .ingest_url;

describe('paging decisions on the timeline', () => {
  it('when the service has no policy and its team has no members, then the timeline says nobody was paged and why', async () => {
    const ws = await seedWorkspace(stack.orm);
    const incidentId = await trigger(await sourceWithoutPolicy(ws));

    const [decision] = await decisions(incidentId);
    expect(decision).toMatchObject({ seq: 2, via: 'escalation' });
    expect(decision.message).toBe('Nobody to page: service "API" has no escalation policy, so its owning team is paged, and team "Ops" has no members.');
    expect(decision.data).toMatchObject({
      kind: 'nobody_to_page',
      source: 'owning_team',
      service: { id: ws.serviceId, name: 'API' },
      policy: null,
      targets: [{ type: 'team', id: ws.teamId, name: 'Ops', users: [], empty_reason: 'team "Ops" has no members' }],
      paged: [],
      nobody_reasons: ['team "Ops" has no members'],
    });
    await sleep(1000);
    expect(await notificationsOf(stack.orm, incidentId)).toEqual([]);
  });

  it('when the service has no policy and its team has a member, then the decision says the owning team is paged, and the page follows it', async () => {
    const ws = await seedWorkspace(stack.orm);
    const person = await responder(stack.orm, ws.organizationId, 'sms');
    await addTeamMember(stack.orm, { teamId: ws.teamId, email: person.email });
    const incidentId = await trigger(await sourceWithoutPolicy(ws));

    const [decision] = await decisions(incidentId);
    expect(decision.message).toBe(`Service "API" has no escalation policy, so its owning team is paged: paging ${person.email} (team "Ops") by SMS.`);
    expect(decision.data.paged).toEqual([{ user_id: person.id, email: person.email, pages: [{ channel: 'sms', delay_seconds: 0 }], disabled_contacts: [] }]);
    await twilio.waitFor('message', (m) => m.params.To === person.address);
    const page = await waitFor(async () => (await entries(incidentId)).find((e) => e.type === 'notification'), 20_000, 'the page entry');
    expect(page.seq).toBeGreaterThan(decision.seq);
  });

  it('when a step targets a schedule with nobody on call and a team without members, then it is nobody to page with both reasons', async () => {
    const ws = await seedWorkspace(stack.orm);
    const later = await addMember(stack.orm, ws.organizationId, 'MEMBER');
    const schedule = await createSchedule(stack.orm, {
      organizationId: ws.organizationId,
      name: 'Next year',
      timeZone: 'UTC',
      layers: [{ users: [later.email], rotation: { unit: 'weeks', length: 1 }, start: '2099-01-05' }],
    });
    const empty = await createTeam(stack.orm, { organizationId: ws.organizationId, name: 'Nobody here' });
    const incidentId = await trigger(
      await pagingService(
        stack.orm,
        ws,
        {
          steps: [
            {
              delay_seconds: 600,
              targets: [
                { type: 'schedule', id: schedule.id },
                { type: 'team', id: empty.id },
              ],
            },
          ],
        },
        stack.urls.ingest,
      ),
    );

    const [decision] = await decisions(incidentId);
    expect(decision.message).toBe('Nobody to page at step 1 of policy "On call": schedule "Next year" has nobody on call; team "Nobody here" has no members.');
    expect(decision.data).toMatchObject({ kind: 'nobody_to_page', step_number: 1, pass_number: 1, source: 'policy', policy: { name: 'On call' } });
    expect(decision.data.targets.map((t: { type: string; empty_reason: string }) => [t.type, t.empty_reason])).toEqual([
      ['schedule', 'schedule "Next year" has nobody on call'],
      ['team', 'team "Nobody here" has no members'],
    ]);
  });

  it('when the person a step resolves to has no usable contact method, then it is nobody to page naming them and their disabled contact', async () => {
    const ws = await seedWorkspace(stack.orm);
    const person = await responder(stack.orm, ws.organizationId, 'sms');
    // A provider refused the number earlier (docs/architecture.md, "Paging"): the contact is disabled, its rule no longer pages.
    await knexOf(stack.orm)('contact_methods').where({ id: person.contactId }).update({ disabled_at: new Date(), disabled_reason: 'invalid To number' });
    const incidentId = await trigger(
      await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest),
    );

    const [decision] = await decisions(incidentId);
    expect(decision.message).toBe(
      `Nobody to page at step 1 of policy "On call": ${person.email} has no usable contact method (SMS ${person.address} disabled: invalid To number).`,
    );
    expect(decision.data.skipped).toEqual([
      {
        user_id: person.id,
        email: person.email,
        reason: 'no_usable_contact_method',
        disabled_contacts: [{ channel: 'sms', address: person.address, reason: 'invalid To number' }],
      },
    ]);
    await sleep(1000);
    expect(await notificationsOf(stack.orm, incidentId)).toEqual([]);
  });

  it("when a Form B source's channels page nobody at the incident's severity, then the decision says so", async () => {
    const ws = await seedWorkspace(stack.orm);
    const person = await responder(stack.orm, ws.organizationId, 'sms');
    await addTeamMember(stack.orm, { teamId: ws.teamId, email: person.email });
    const source = await createSource(stack.orm, {
      organizationId: ws.organizationId,
      serviceId: ws.serviceId,
      name: 'form b',
      ingestBaseUrl: stack.urls.ingest,
      channels: ['sms'],
    });
    const res = await fetch(source.ingest_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Disk at 70%', severity: 'info' }),
    });
    expect(res.status).toBe(202);
    const { incident_id: incidentId } = (await res.json()) as { incident_id: string };

    const [decision] = await decisions(incidentId);
    expect(decision.message).toBe(
      'Nobody to page: service "API" has no escalation policy, so its owning team is paged, on the source\'s channels sms, and none of the source\'s channels (sms) pages for an info incident.',
    );
    expect(decision.data).toMatchObject({ kind: 'nobody_to_page', form_b: { channels: ['sms'], severity: 'INFO', paging_channels: [] } });
  });

  it('when a step resolves to a user and whoever is on call, then each step has its decision naming them and where they came from', async () => {
    const ws = await seedWorkspace(stack.orm);
    const first = await responder(stack.orm, ws.organizationId, 'sms');
    const onCall = await responder(stack.orm, ws.organizationId, 'voice');
    const unreachable = await addMember(stack.orm, ws.organizationId, 'MEMBER');
    const schedule = await createSchedule(stack.orm, {
      organizationId: ws.organizationId,
      name: 'Primary',
      timeZone: 'UTC',
      layers: [{ users: [onCall.email], rotation: { unit: 'weeks', length: 1 }, start: '2026-01-05' }],
    });
    const incidentId = await trigger(
      await pagingService(
        stack.orm,
        ws,
        {
          steps: [
            {
              delay_seconds: 1,
              targets: [
                { type: 'user', id: first.id },
                { type: 'user', id: unreachable.id },
              ],
            },
            { delay_seconds: 600, targets: [{ type: 'schedule', id: schedule.id }] },
          ],
        },
        stack.urls.ingest,
      ),
    );

    const [step1, step2] = await decisions(incidentId, 2);
    expect(step1.message).toBe(
      `Step 1 of policy "On call": paging ${first.email} (user) by SMS. Not paged: ${unreachable.email} has no usable contact method.`,
    );
    expect(step2.message).toBe(`Step 2 of policy "On call": paging ${onCall.email} (on call in schedule "Primary") by Voice call.`);
    expect(step2.data.targets).toEqual([
      { type: 'schedule', id: schedule.id, name: 'Primary', users: [{ id: onCall.id, email: onCall.email }], empty_reason: null },
    ]);
    await twilio.waitFor('call', (c) => c.params.To === onCall.address);
  });
});
