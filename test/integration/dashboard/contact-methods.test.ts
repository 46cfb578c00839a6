import { createHash } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import type { Role } from '../../../src/domain/roles';
import { createSource } from '../../../src/services/ingest/sources';
import { addContactMethod } from '../../../src/services/paging/contacts';
import { setServicePolicy } from '../../../src/services/paging/escalation-policies';
import { addNotificationRule, notificationRulesFor } from '../../../src/services/paging/notification-rules';
import { createService } from '../../../src/services/workspace/catalog';
import { createTeam } from '../../../src/services/workspace/workspaces';
import { ALL_ROLES, dashboardFixture, expectDashboardError, memberSession, type DashboardSession, workspaceWithRoles } from '../../support/dashboard';
import { phoneNumber, trigger } from '../../support/paging';
import { sleep, waitFor } from '../../support/wait';
import { rowCount } from '../../support/workspace';

const fx = dashboardFixture();
const { api } = fx;
const ROLES = ALL_ROLES;
const ADMINS = new Set<Role>(['BILLING_OWNER', 'ACCOUNT_ADMIN']);

let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
beforeAll(async () => {
  ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
});

const db = () => knexOf(fx.stack.orm);
const expectError = expectDashboardError;
const add = (session: DashboardSession, body: Record<string, unknown>) => api('POST', '/contact-methods', { session, body });
/** Texts the dev inbox holds for a number (the SMS channel has no provider in tests), oldest first. */
const textsTo = (to: string): Promise<Array<{ body: string }>> => db()('dev_deliveries').select('body').where({ channel: 'sms', to }).orderBy('created_at');
const codeSentTo = async (to: string) => {
  const texts = await textsTo(to);
  const match = texts.at(-1)?.body.match(/code is (\d{6})\b/);
  if (!match) throw new Error(`no code texted to ${to}`);
  return match[1];
};
const auditOf = async (action: string) => (await api('GET', `/audit-log?action=${action}`, { session: ws.owner })).body.data as any[];
/** A member's own new phone number, unverified, with its code. */
const newPhone = async (session: DashboardSession, type = 'sms') => {
  const address = phoneNumber();
  const res = await add(session, { type, address, label: 'work phone' });
  expect(res.status).toBe(201);
  return { id: res.body.data.id as string, address, code: await codeSentTo(address) };
};
/** A member of their own: each person may add 5 new numbers an hour. */
const fresh = () => memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'MEMBER');
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('phone verification', () => {
  it('when a member adds a phone number, then a code is texted to it, a wrong code is 400, the right one verifies it, and only the hash is stored', async () => {
    const me = await fresh();
    const address = phoneNumber();
    const created = await add(me, { type: 'sms', address: address.replace(/^\+1/, '+1 '), label: 'work phone' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      user_id: me.userId,
      organization_id: ws.organizationId,
      type: 'sms',
      address,
      label: 'work phone',
      verified_at: null,
      disabled_at: null,
    });
    const id = created.body.data.id;

    const code = await codeSentTo(address);
    const row = await db()('contact_methods').where({ id }).first();
    expect(row.verification_code_hash).toBe(createHash('sha256').update(code).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(code);
    expect(new Date(row.verification_expires_at).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);

    const wrong = await api('POST', `/contact-methods/${id}/verify`, { session: me, body: { code: otherCode(code) } });
    expectError(wrong, 400, 'code_invalid', /^code: wrong code; 4 attempt\(s\) left/);
    expect(wrong.body.error).not.toContain(code);

    const right = await api('POST', `/contact-methods/${id}/verify`, { session: me, body: { code } });
    expect(right.status).toBe(200);
    expect(right.body.data).toMatchObject({ id, verified_at: expect.any(String) });
    expect(await db()('contact_methods').where({ id }).first()).toMatchObject({
      verification_code_hash: null,
      verification_expires_at: null,
      verification_attempts: 0,
    });
    expect((await api('GET', '/contact-methods', { session: me })).body.data.find((c: { id: string }) => c.id === id).verified_at).toBe(
      right.body.data.verified_at,
    );

    const created_ = (await auditOf('contact_method.create')).find((e) => e.target.id === id);
    expect(created_).toMatchObject({ actor: { user_id: me.userId }, details: { user_id: me.userId, type: 'sms', label: 'work phone', verified: false } });
    const verified = (await auditOf('contact_method.verify')).filter((e) => e.target.id === id);
    expect(verified).toHaveLength(1);
    expect(JSON.stringify([created_, verified])).not.toContain(code);
  });

  it('when five wrong codes are typed, then even the right code is 400 code_expired until a new code is sent', async () => {
    const me = await fresh();
    const phone = await newPhone(me, 'voice');
    for (let i = 0; i < 5; i++)
      expectError(await api('POST', `/contact-methods/${phone.id}/verify`, { session: me, body: { code: otherCode(phone.code) } }), 400, 'code_invalid');
    expectError(await api('POST', `/contact-methods/${phone.id}/verify`, { session: me, body: { code: phone.code } }), 400, 'code_expired');
    expect((await db()('contact_methods').where({ id: phone.id }).first()).verified_at).toBeNull();

    // The resend limit counts from when the last code went out.
    await db()('contact_methods')
      .where({ id: phone.id })
      .update({ verification_expires_at: new Date(Date.now() + 8 * 60_000) });
    const resent = await api('POST', `/contact-methods/${phone.id}/resend`, { session: me });
    expect(resent.status).toBe(200);
    const newCode = await codeSentTo(phone.address);
    expect((await textsTo(phone.address)).length).toBe(2);
    if (newCode !== phone.code)
      expectError(await api('POST', `/contact-methods/${phone.id}/verify`, { session: me, body: { code: phone.code } }), 400, 'code_invalid');
    expect((await api('POST', `/contact-methods/${phone.id}/verify`, { session: me, body: { code: newCode } })).status).toBe(200);
    expectError(await api('POST', `/contact-methods/${phone.id}/resend`, { session: me }), 409, 'already_verified');
  });

  it('when a code is older than ten minutes, then it is 400 code_expired', async () => {
    const me = await fresh();
    const phone = await newPhone(me);
    await db()('contact_methods')
      .where({ id: phone.id })
      .update({ verification_expires_at: new Date(Date.now() - 1000) });
    expectError(await api('POST', `/contact-methods/${phone.id}/verify`, { session: me, body: { code: phone.code } }), 400, 'code_expired');
  });

  it('when a new code is asked for within a minute of the last, then 429 with Retry-After and nothing is texted', async () => {
    const me = await fresh();
    const phone = await newPhone(me);
    const res = await api('POST', `/contact-methods/${phone.id}/resend`, { session: me });
    expectError(res, 429, 'rate_limited');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await textsTo(phone.address)).toHaveLength(1);
  });

  it('when a sixth phone number is added within an hour, then 429 with Retry-After and nothing is texted, even after deleting some', async () => {
    const me = await fresh();
    const phones = [];
    for (let i = 0; i < 5; i++) phones.push(await newPhone(me));
    await api('DELETE', `/contact-methods/${phones[0].id}`, { session: me });
    const address = phoneNumber();
    const before = await rowCount(fx.stack.orm, 'contact_methods');
    const res = await add(me, { type: 'voice', address });
    expectError(res, 429, 'rate_limited', /at most 5 new phone numbers an hour/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(await textsTo(address)).toEqual([]);
    expect(await rowCount(fx.stack.orm, 'contact_methods')).toBe(before);
    expect((await add(me, { type: 'email', address: `x-${me.email}` })).status).toBe(201); // no code, no limit
  });

  it('when an email or push contact method is added, then it is verified at once and nothing is texted', async () => {
    const email = await add(ws.as.MEMBER, { type: 'email', address: ws.as.MEMBER.email.toUpperCase() });
    expect(email.status).toBe(201);
    expect(email.body.data).toMatchObject({ type: 'email', address: ws.as.MEMBER.email, verified_at: expect.any(String) });
    const push = await add(ws.as.MEMBER, { type: 'push_android', address: 'fcm-token-123' });
    expect(push.body.data.verified_at).toEqual(expect.any(String));
  });
});

describe('contact methods added by an operator (klaxon contact add)', () => {
  it('when the CLI adds a phone number, then it is verified at once, no code is texted, it is paged, and the audit log names the CLI', async () => {
    const member = ws.as.TEAM_MANAGER;
    const address = phoneNumber();
    const added = await addContactMethod(fx.stack.orm, { email: member.email, type: 'voice', address, organizationId: ws.organizationId });
    expect(added.verified_at).toEqual(expect.any(String));
    expect(await textsTo(address)).toEqual([]);
    await addNotificationRule(fx.stack.orm, { email: member.email, contactMethodId: added.id, delaySeconds: 30 });
    const [planned] = await notificationRulesFor(fx.stack.orm, [member.userId], { organizationId: ws.organizationId });
    expect(planned.rules).toContainEqual(expect.objectContaining({ contactMethodId: added.id, type: 'voice', address }));
    expect((await auditOf('contact_method.create')).find((e) => e.target.id === added.id)).toMatchObject({
      actor: { kind: 'system', user_id: null },
      details: { verified: true },
    });
  });
});

describe('contact methods by role', () => {
  it.each(ROLES)('when a %s manages their own contact methods, then they may; another member’s only as an admin', async (role) => {
    const session = ws.as[role];
    const mine = await add(session, { type: 'email', address: `${role.toLowerCase()}-own@example.test` });
    expect(mine.status).toBe(201);
    expect((await api('GET', '/contact-methods', { session })).body.data.map((c: { id: string }) => c.id)).toContain(mine.body.data.id);
    expect((await api('DELETE', `/contact-methods/${mine.body.data.id}`, { session })).status).toBe(200);

    const other = await memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'MEMBER');
    const theirs = await newPhone(other);
    const answers = [
      await add(session, { type: 'email', address: `for-${role.toLowerCase()}@example.test`, user_id: other.userId }),
      await api('GET', `/contact-methods?user_id=${other.userId}`, { session }),
      await api('POST', `/contact-methods/${theirs.id}/verify`, { session, body: { code: theirs.code } }),
      await api('DELETE', `/contact-methods/${theirs.id}`, { session }),
    ];
    if (ADMINS.has(role)) {
      expect(answers.map((a) => a.status)).toEqual([201, 200, 200, 200]);
      expect(answers[0].body.data.user_id).toBe(other.userId);
    } else {
      for (const a of answers) expectError(a, 403, 'forbidden');
      expect(await db()('contact_methods').where({ user_id: other.userId }).pluck('id')).toEqual([theirs.id]);
    }
  });
});

describe('contact methods', () => {
  it('when a contact method is removed, then its notification rules go with it and the removal is audited', async () => {
    const me = await fresh();
    const phone = await newPhone(me);
    const rule = await api('POST', '/notification-rules', { session: me, body: { contact_method_id: phone.id, delay_seconds: 0 } });
    expect(rule.status).toBe(201);
    const removed = await api('DELETE', `/contact-methods/${phone.id}`, { session: me });
    expect(removed.body.data).toEqual({ id: phone.id, removed: true, rules_removed: 1 });
    expect(await db()('notification_rules').where({ id: rule.body.data.id }).first()).toBeUndefined();
    expect((await auditOf('contact_method.delete')).find((e) => e.target.id === phone.id).details).toMatchObject({ type: 'sms', rules_removed: 1 });
  });

  it.each([
    ['an unknown field', { type: 'sms', address: '+14155550100', verified: true }, /Unrecognized key/],
    ['an unknown type', { type: 'fax', address: '+14155550100' }, /^type: must be one of/],
    ['an address of the wrong type', { type: 'sms', address: 14155550100 }, /^address: /],
    ['a number not in E.164 form', { type: 'voice', address: '555-0100' }, /^address: must be a phone number in E\.164 form/],
    ['a label that is too long', { type: 'email', address: 'a@example.test', label: 'l'.repeat(256) }, /^label: /],
    ['a user_id that is not a UUID', { type: 'email', address: 'a@example.test', user_id: 'me' }, /^user_id: must be a UUID/],
  ])('when the body has %s, then 400 naming the field, nothing is written and nothing is texted', async (_what, body, error) => {
    const before = [await rowCount(fx.stack.orm, 'contact_methods'), await rowCount(fx.stack.orm, 'dev_deliveries')];
    expectError(await add(ws.owner, body), 400, 'invalid_request', error);
    expect([await rowCount(fx.stack.orm, 'contact_methods'), await rowCount(fx.stack.orm, 'dev_deliveries')]).toEqual(before);
  });

  it('when the same number is added twice, then 409 duplicate_contact_method and no second code', async () => {
    const me = await fresh();
    const phone = await newPhone(me);
    expectError(await add(me, { type: 'sms', address: phone.address }), 409, 'duplicate_contact_method');
    expect(await textsTo(phone.address)).toHaveLength(1);
  });

  it('when a state-changing request has no X-CSRF-Token, then 403 csrf_failed and nothing changes', async () => {
    const me = await fresh();
    const phone = await newPhone(me);
    const before = await rowCount(fx.stack.orm, 'contact_methods');
    expectError(await api('POST', '/contact-methods', { session: me, csrf: null, body: { type: 'sms', address: phoneNumber() } }), 403, 'csrf_failed');
    expectError(await api('POST', `/contact-methods/${phone.id}/verify`, { session: me, csrf: null, body: { code: phone.code } }), 403, 'csrf_failed');
    expectError(await api('DELETE', `/contact-methods/${phone.id}`, { session: me, csrf: null }), 403, 'csrf_failed');
    expect(await rowCount(fx.stack.orm, 'contact_methods')).toBe(before);
    expect((await db()('contact_methods').where({ id: phone.id }).first()).verified_at).toBeNull();
  });

  it('when another workspace’s contact method or member is named, then 404 and it is untouched', async () => {
    const other = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const theirs = await newPhone(other.owner);
    expectError(await api('POST', `/contact-methods/${theirs.id}/verify`, { session: ws.owner, body: { code: theirs.code } }), 404, 'not_found');
    expectError(await api('POST', `/contact-methods/${theirs.id}/resend`, { session: ws.owner }), 404, 'not_found');
    expectError(await api('DELETE', `/contact-methods/${theirs.id}`, { session: ws.owner }), 404, 'not_found');
    expectError(await api('GET', `/contact-methods?user_id=${other.owner.userId}`, { session: ws.owner }), 404, 'not_found');
    expectError(await add(ws.owner, { type: 'email', address: 'x@example.test', user_id: other.owner.userId }), 404, 'not_found');
    expect((await db()('contact_methods').where({ id: theirs.id }).first()).verified_at).toBeNull();
  });
});

describe('paging an unverified number', () => {
  it('when a policy pages a member whose only rule is on an unverified number, then it is not paged; once verified, it is', async () => {
    await db()('organizations').where({ id: ws.organizationId }).update({ plan: 'PRO' }); // FREE has no SMS pages
    const member = await memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'MEMBER');
    const phone = await newPhone(member);
    expect((await api('POST', '/notification-rules', { session: member, body: { contact_method_id: phone.id, delay_seconds: 0 } })).status).toBe(201);
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'On call' });
    const service = await createService(fx.stack.orm, { organizationId: ws.organizationId, teamId: team.id, name: 'Checkout' });
    const policy = await api('POST', '/escalation-policies', {
      session: ws.owner,
      body: { name: 'Pager', steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: member.userId }] }] },
    });
    await setServicePolicy(fx.stack.orm, { serviceId: service.id, policyId: policy.body.data.id });
    const ingestUrl = (
      await createSource(fx.stack.orm, { organizationId: ws.organizationId, serviceId: service.id, name: 'checks', ingestBaseUrl: fx.stack.urls.ingest })
    ).ingest_url;
    const decisionsOf = (incidentId: string) =>
      db()('timeline_entries').select('message', 'data').where({ incident_id: incidentId, type: 'paging_decision' }).orderBy('seq');

    const first = await trigger(ingestUrl);
    const [decision] = await waitFor(async () => (await decisionsOf(first)).length > 0 && decisionsOf(first), 20_000, 'the paging decision');
    expect(decision.data).toMatchObject({
      kind: 'nobody_to_page',
      skipped: [expect.objectContaining({ user_id: member.userId, reason: 'no_usable_contact_method' })],
    });
    // The timeline says why the number was not used.
    expect(decision.data.skipped[0].disabled_contacts).toEqual([{ channel: 'sms', address: phone.address, reason: expect.stringContaining('not verified') }]);
    expect(decision.message).toContain('not verified');
    await sleep(1000);
    expect(await textsTo(phone.address)).toHaveLength(1); // the verification code only
    expect(await db()('notifications').where({ incident_id: first })).toEqual([]);

    expect((await api('POST', `/contact-methods/${phone.id}/verify`, { session: member, body: { code: phone.code } })).status).toBe(200);
    const second = await trigger(ingestUrl);
    await waitFor(async () => (await textsTo(phone.address)).length === 2, 20_000, 'the page by SMS');
    expect(await db()('notifications').where({ incident_id: second }).first()).toMatchObject({ channel: 'sms', target: phone.address });
  });
});
