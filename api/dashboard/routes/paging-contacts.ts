import { randomUUID } from 'node:crypto';
import type { ParameterizedContext } from 'koa';
import { z } from 'zod';
import { CHANNEL_IDS, MAX_DEVICE_TOKEN_LENGTH } from '../../../src/domain/channels';
import {
  addMemberContactMethod,
  addMemberNotificationRule,
  contactMethodIn,
  listMemberContactMethods,
  listMemberNotificationRules,
  memberOf,
  notificationRuleIn,
  removeContactMethod,
  removeNotificationRule,
  resendVerificationCode,
  verifyContactMethod,
  VerificationThrottled,
  type SendVerificationCode,
} from '../../../src/services/paging';
import { sendContactTest } from '../../../src/services/paging/test-sends';
import { TEST_SEND_REFUSAL } from '../../../src/services/throttles';
import { HttpError } from '../../http/customer-errors';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, authorize, IdParams, type AdminActor, type AdminDeps } from '../admin-kit';

export const ContactSchema = z.object({
  id: z.uuid(),
  organization_id: z.uuid(),
  user_id: z.uuid(),
  type: z.enum(CHANNEL_IDS),
  address: z.string(),
  label: z.string().nullable(),
  disabled_at: z.iso.datetime().nullable().describe('set when a provider reported the address unusable'),
  disabled_reason: z.string().nullable(),
  verified_at: z.iso.datetime().nullable().describe('null: a phone number waiting for its code; it is never paged'),
  source: z.enum(['import']).nullable().describe('import: brought in from PagerDuty or Opsgenie by an import (docs/importers.md); null: made in Klaxon'),
  created_at: z.iso.datetime(),
});
const RuleSchema = z.object({ id: z.uuid(), user_id: z.uuid(), contact_method_id: z.uuid(), delay_seconds: z.number().int() });

const WhoseQuery = z
  .object({ user_id: z.uuid('must be a UUID').optional().describe('another member’s (Billing Owner, Account Admin); default: mine') })
  .strict();
/** A browser's `PushSubscription.toJSON()` (push_web); the channel registry checks its fields and lengths. */
const PushSubscriptionBody = z
  .object({ endpoint: z.string(), keys: z.object({ p256dh: z.string(), auth: z.string() }).loose(), expirationTime: z.number().nullish() })
  .loose()
  .describe('PushSubscription: endpoint (https URL of the browser’s push service, ≤ 2048), keys.p256dh (87 base64url), keys.auth (22 base64url)');
const TestPushSchema = z.object({
  delivered: z.boolean().describe('the push service took the push'),
  status_code: z.number().int().nullable().describe('the push service’s HTTP status; null when none came'),
  error: z.string().nullable().describe('why not delivered (never the endpoint’s path or keys)'),
  provider: z.string().nullable().describe('the provider that sent it or refused it (twilio, sendgrid, pushover, web-push, …, dev_inbox)'),
});
const ContactBody = z
  .object({
    type: z.enum(CHANNEL_IDS, { error: `must be one of ${CHANNEL_IDS.join(', ')}` }),
    address: z
      .union([z.string().min(1).max(MAX_DEVICE_TOKEN_LENGTH), PushSubscriptionBody], {
        error: 'must be a string, or a browser push subscription object for push_web',
      })
      .describe(
        'E.164 number (sms, voice), email address, device token (push_ios, push_android), or a browser PushSubscription (push_web: the object or its JSON text; stored as canonical JSON)',
      ),
    label: z.string().max(255).nullish(),
    user_id: z.uuid('must be a UUID').optional().describe('a member’s (Billing Owner, Account Admin); default: mine'),
  })
  .strict();
const VerifyBody = z.object({ code: z.string().regex(/^\s*\d{6}\s*$/, 'must be the 6-digit code we texted') }).strict();
const RuleBody = z
  .object({
    contact_method_id: z.uuid('must be a UUID'),
    delay_seconds: z.number({ error: 'must be a number' }).int('must be a whole number').min(0).max(3600).describe('seconds after the page, 0 to 3600'),
  })
  .strict();

const SELF_OR_ADMIN = 'the owner; Billing Owner, Account Admin for any member (members.manage)';
const NOT_FOUND = { 404: 'no such contact method (or rule, or member) in this workspace' };

/** May the actor manage this user's contact methods and rules? Their own always; anyone's with members.manage. */
async function mayManage(deps: AdminDeps, actor: AdminActor, userId: string): Promise<void> {
  if (userId !== actor.userId) await authorize(deps.orm, actor, 'members.manage');
}

/** The member whose methods or rules are asked for: me, or (admins) a member named by id. */
async function whose(deps: AdminDeps, actor: AdminActor, userId: string | undefined): Promise<string> {
  if (userId === undefined || userId === actor.userId) return actor.userId;
  await mayManage(deps, actor, userId);
  return (await memberOf(deps.orm, actor.organizationId, userId)).id;
}

/** Codes go out through the SMS channel: a provider, or the dev inbox. */
const smsCode =
  (deps: AdminDeps): SendVerificationCode =>
  async (to, text) => {
    await deps.sms.send({ notificationId: randomUUID(), channel: 'sms', to, subject: '', text });
  };

/** Too many codes asked for: 429 with Retry-After. */
async function throttled<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof VerificationThrottled) throw new HttpError(429, err.message, 'rate_limited', { 'Retry-After': String(err.retryAfterSeconds) });
    throw err;
  }
}

/** Contact methods (with phone verification) and notification rules under /api: everyone their own; admins anyone's. */
export function contactRoutes(deps: AdminDeps): RouteSpec[] {
  const actorOf = (ctx: ParameterizedContext) => adminActorOf(ctx);
  /** A contact method of the workspace the actor may manage. */
  const ownedContact = async (ctx: ParameterizedContext, id: string) => {
    const actor = actorOf(ctx);
    const contact = await contactMethodIn(deps.orm, { id, organizationId: actor.organizationId });
    await mayManage(deps, actor, contact.user_id);
    return { actor, contact };
  };
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/contact-methods',
      summary: `List contact methods: mine, or a member’s with ?user_id= (${SELF_OR_ADMIN})`,
      operationId: 'listContactMethods',
      query: WhoseQuery,
      success: { status: 200, description: 'the contact methods, oldest first', schema: z.array(ContactSchema) },
      errors: { ...ADMIN_ERRORS, ...NOT_FOUND },
      handler: async (ctx, { query }) => {
        const actor = actorOf(ctx);
        const methods = await listMemberContactMethods(deps.orm, { organizationId: actor.organizationId, userId: await whose(deps, actor, query.user_id) });
        return { data: methods, message: `${methods.length} contact method(s)` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/contact-methods',
      summary: `Add a contact method; a phone number (sms, voice) starts unverified and gets a 6-digit code by SMS (${SELF_OR_ADMIN})`,
      operationId: 'createContactMethod',
      body: ContactBody,
      success: { status: 201, description: 'the contact method (verified_at null for a phone number until its code is typed back)', schema: ContactSchema },
      errors: {
        ...ADMIN_ERRORS,
        ...NOT_FOUND,
        409: 'duplicate_contact_method: this person already has this address for this type',
        429: 'rate_limited: 5 new phone numbers were added for this person in the last hour (Retry-After)',
      },
      handler: async (ctx, { body }) => {
        const actor = actorOf(ctx);
        const userId = await whose(deps, actor, body.user_id);
        const created = await throttled(
          addMemberContactMethod(
            deps.orm,
            {
              organizationId: actor.organizationId,
              userId,
              type: body.type,
              address: typeof body.address === 'string' ? body.address : JSON.stringify(body.address),
              label: body.label,
            },
            { actor: auditActorOf(actor), sendCode: smsCode(deps), allowPrivateTargets: deps.notify.allowPrivateTargets },
          ),
        );
        return {
          data: created,
          message: created.verified_at
            ? 'contact method added'
            : 'contact method added; type back the code we texted to it (POST /api/contact-methods/{id}/verify)',
        };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/contact-methods/{id}/verify',
      summary: `Verify a phone number with the code texted to it (${SELF_OR_ADMIN})`,
      operationId: 'verifyContactMethod',
      params: IdParams,
      body: VerifyBody,
      success: { status: 200, description: 'the contact method, verified (already verified: unchanged)', schema: ContactSchema },
      errors: {
        ...ADMIN_ERRORS,
        400: 'code_invalid (wrong code: an attempt is counted), code_expired (older than 10 minutes or 5 wrong attempts: ask for a new one), or invalid input',
        ...NOT_FOUND,
      },
      handler: async (ctx, { params, body }) => {
        const { actor, contact } = await ownedContact(ctx, params.id);
        return {
          data: await verifyContactMethod(deps.orm, { id: contact.id, organizationId: actor.organizationId, code: body.code }, { actor: auditActorOf(actor) }),
          message: 'phone number verified',
        };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/contact-methods/{id}/resend',
      summary: `Text a new verification code to an unverified phone number, at most once a minute (${SELF_OR_ADMIN})`,
      operationId: 'resendContactMethodCode',
      params: IdParams,
      success: {
        status: 200,
        description: 'a new code is on its way; the previous one no longer works',
        schema: z.object({ id: z.uuid(), expires_at: z.iso.datetime() }),
      },
      errors: {
        ...ADMIN_ERRORS,
        ...NOT_FOUND,
        409: 'already_verified',
        429: 'rate_limited: a code went out less than a minute ago (Retry-After says when to ask again)',
      },
      handler: async (ctx, { params }) => {
        const { actor, contact } = await ownedContact(ctx, params.id);
        const sent = await throttled(resendVerificationCode(deps.orm, { id: contact.id, organizationId: actor.organizationId }, smsCode(deps)));
        return { data: sent, message: 'a new code is on its way' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/contact-methods/{id}/test',
      summary: `Send a test now to a contact method, on any channel that takes one (GET /api/channels: testable) (${SELF_OR_ADMIN})`,
      operationId: 'testContactMethod',
      params: IdParams,
      success: {
        status: 200,
        description: 'what the provider answered; for browser push (push_web) a 404 or 410 (subscription gone) also disables the contact method',
        schema: TestPushSchema,
      },
      errors: {
        ...ADMIN_ERRORS,
        ...NOT_FOUND,
        409: 'test_not_supported: the channel takes no test (Slack DMs), or the contact method is disabled or not verified',
        429: `rate_limited: ${TEST_SEND_REFUSAL}`,
      },
      handler: async (ctx, { params }) => {
        const { actor, contact } = await ownedContact(ctx, params.id);
        const admit = () => deps.throttles.testSend.take(actor.organizationId, actor.userId);
        const result = await sendContactTest(deps.orm, contact, { senders: deps.senders, notify: deps.notify }, { admit });
        return { data: result, message: result.delivered ? 'test sent' : `test not sent: ${result.error}` };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/contact-methods/{id}',
      summary: `Remove a contact method and its notification rules (${SELF_OR_ADMIN})`,
      operationId: 'deleteContactMethod',
      params: IdParams,
      success: { status: 200, description: 'removed', schema: z.object({ id: z.uuid(), removed: z.literal(true), rules_removed: z.number().int() }) },
      errors: { ...ADMIN_ERRORS, ...NOT_FOUND },
      handler: async (ctx, { params }) => {
        const { actor, contact } = await ownedContact(ctx, params.id);
        return {
          data: await removeContactMethod(deps.orm, { id: contact.id, organizationId: actor.organizationId }, { actor: auditActorOf(actor) }),
          message: 'contact method removed',
        };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/notification-rules',
      summary: `List notification rules in firing order: mine, or a member’s with ?user_id= (${SELF_OR_ADMIN})`,
      operationId: 'listNotificationRules',
      query: WhoseQuery,
      success: { status: 200, description: 'the rules, in the order they fire', schema: z.array(RuleSchema) },
      errors: { ...ADMIN_ERRORS, ...NOT_FOUND },
      handler: async (ctx, { query }) => {
        const actor = actorOf(ctx);
        const rules = await listMemberNotificationRules(deps.orm, { organizationId: actor.organizationId, userId: await whose(deps, actor, query.user_id) });
        return { data: rules, message: `${rules.length} rule(s)` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/notification-rules',
      summary: `Page on a contact method this long after the person is paged; the rule belongs to the method’s owner (${SELF_OR_ADMIN})`,
      operationId: 'createNotificationRule',
      body: RuleBody,
      success: { status: 201, description: 'the rule', schema: RuleSchema },
      errors: { ...ADMIN_ERRORS, ...NOT_FOUND, 409: 'duplicate_notification_rule: the method already has a rule at this delay' },
      handler: async (ctx, { body }) => {
        const { actor, contact } = await ownedContact(ctx, body.contact_method_id);
        const rule = await addMemberNotificationRule(
          deps.orm,
          { organizationId: actor.organizationId, userId: contact.user_id, contactMethodId: contact.id, delaySeconds: body.delay_seconds },
          { actor: auditActorOf(actor) },
        );
        return { data: rule, message: contact.verified_at ? 'notification rule added' : 'notification rule added; it pages once the number is verified' };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/notification-rules/{id}',
      summary: `Remove a notification rule (${SELF_OR_ADMIN})`,
      operationId: 'deleteNotificationRule',
      params: IdParams,
      success: { status: 200, description: 'removed', schema: z.object({ id: z.uuid(), removed: z.literal(true) }) },
      errors: { ...ADMIN_ERRORS, ...NOT_FOUND },
      handler: async (ctx, { params }) => {
        const actor = actorOf(ctx);
        const rule = await notificationRuleIn(deps.orm, { id: params.id, organizationId: actor.organizationId });
        await mayManage(deps, actor, rule.user_id);
        return {
          data: await removeNotificationRule(deps.orm, { id: rule.id, organizationId: actor.organizationId }, { actor: auditActorOf(actor) }),
          message: 'notification rule removed',
        };
      },
    }),
  ];
}
