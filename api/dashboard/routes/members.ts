import { z } from 'zod';
import { PLANS } from '../../../src/domain/plans';
import { ROLES } from '../../../src/domain/roles';
import { MAX_PASSWORD_LENGTH } from '../../../src/services/accounts';
import {
  acceptInvitation,
  changeMemberRole,
  changePlan,
  createInvitation,
  getPlanView,
  listInvitations,
  listMembers,
  removeMember,
  resendVerification,
  revokeInvitation,
} from '../../../src/services/workspace';
import { conflict } from '../../../src/services/errors';
import { VERIFICATION_RESEND_LIMITS } from '../../../src/services/throttles';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, IdParams, requireVerified, type AdminActor, type AdminDeps, authorizedActor } from '../admin-kit';

const Role = z.enum(ROLES);
const UserParams = z.object({ user_id: z.uuid('must be a UUID') });
const RoleBody = z.object({ role: Role }).strict();
const InviteBody = z.object({ email: z.email('must be an email address').max(320), role: Role }).strict();
const AcceptBody = z
  .object({
    token: z.string().min(1).max(256),
    name: z.string().trim().min(1).max(255).optional(),
    password: z.string().min(1).max(MAX_PASSWORD_LENGTH).optional(),
  })
  .strict();
const PlanBody = z.object({ plan: z.enum(PLANS) }).strict();

const MemberSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  role: Role,
  verified: z.boolean(),
  two_factor_enabled: z.boolean(),
  joined_at: z.iso.datetime(),
});
const InvitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: Role,
  invited_by: z.object({ id: z.uuid(), email: z.string() }).nullable(),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
});
const RemovedSchema = z.object({
  user_id: z.uuid(),
  email: z.string(),
  sessions_ended: z.number().int(),
  api_tokens_revoked: z.number().int(),
  api_keys_revoked: z.number().int(),
  teams_left: z.number().int(),
});
const Unlimited = z.number().int().nullable().describe('null: unlimited');
const PlanSchema = z.object({
  plan: z.enum(PLANS),
  limits: z.object({
    users: Unlimited,
    sources: Unlimited,
    alerts_per_month: Unlimited,
    sms_per_user_per_month: z.number().int(),
    voice_per_user_per_month: z.number().int(),
    history_days: z.number().int(),
    api_access: z.boolean(),
  }),
  usage: z.object({
    users: z.number().int(),
    pending_invitations: z.number().int().describe('pending invitations take a seat of the user limit too'),
    sources: z.number().int(),
    alerts_this_month: z.number().int(),
    alerts_limit: Unlimited,
    resets_at: z.iso.datetime().describe('first instant of next month (UTC), when alerts_this_month starts again'),
  }),
});
const AcceptedSchema = z.object({
  organization: z.object({ id: z.uuid(), name: z.string(), plan: z.enum(PLANS) }),
  role: Role,
  user: z.object({ id: z.uuid(), email: z.string(), new_account: z.boolean() }),
});

const memberActor = (a: AdminActor) => ({ organizationId: a.organizationId, role: a.role, audit: auditActorOf(a) });

/** Members, invitations, the plan and resending the verification email, under /api (session). */
export function membersRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/members',
      operationId: 'listMembers',
      summary: 'List the workspace’s members (any member)',
      success: { status: 200, description: 'every member, in the order they joined', schema: z.array(MemberSchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const members = await listMembers(deps.orm, actor.organizationId);
        return { data: members, message: `${members.length} member(s)` };
      },
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/members/{user_id}',
      operationId: 'changeMemberRole',
      summary: 'Change a member’s role (Billing Owner, Account Admin; only a Billing Owner may make or unmake a Billing Owner)',
      params: UserParams,
      body: RoleBody,
      success: { status: 200, description: 'the member with the new role; their sessions in this workspace were ended', schema: MemberSchema },
      errors: { ...ADMIN_ERRORS, 404: 'not a member of this workspace', 409: 'last_billing_owner: the workspace keeps at least one Billing Owner' },
      handler: async (ctx, { params, body }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'members.manage');
        const { member, changed, sessionsEnded } = await changeMemberRole(deps.orm, memberActor(actor), params.user_id, body.role);
        return {
          data: member,
          message: changed
            ? `${member.email} is now ${member.role}; ${sessionsEnded} session(s) ended, the new role applies at their next login`
            : `${member.email} already is ${member.role}; nothing changed`,
        };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/members/{user_id}',
      operationId: 'removeMember',
      summary: 'Remove a member from the workspace (Billing Owner, Account Admin; only a Billing Owner may remove a Billing Owner)',
      params: UserParams,
      success: {
        status: 200,
        description: 'what the removal ended: sessions here, API tokens, API keys, team places (the user account stays)',
        schema: RemovedSchema,
      },
      errors: { ...ADMIN_ERRORS, 404: 'not a member of this workspace', 409: 'last_billing_owner: the workspace keeps at least one Billing Owner' },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'members.manage');
        const removed = await removeMember(deps.orm, memberActor(actor), params.user_id);
        return { data: removed, message: `${removed.email} removed from the workspace; their sessions here, API tokens and API keys no longer work` };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/invitations',
      operationId: 'listInvitations',
      summary: 'List pending invitations (any member)',
      success: { status: 200, description: 'invitations not yet accepted, revoked or expired, newest first', schema: z.array(InvitationSchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const invitations = await listInvitations(deps.orm, actor.organizationId);
        return { data: invitations, message: `${invitations.length} pending invitation(s)` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/invitations',
      operationId: 'createInvitation',
      summary: 'Invite someone by email with a role (Billing Owner, Account Admin; verified; only a Billing Owner may invite a Billing Owner)',
      body: InviteBody,
      success: {
        status: 201,
        description: 'the invitation; the link (valid 7 days) went to the address by email and is not in this answer',
        schema: InvitationSchema,
      },
      errors: { ...ADMIN_ERRORS, 403: `${ADMIN_ERRORS[403]}; email_unverified (verify your own address first)`, 409: 'already_member' },
      handler: async (ctx, { body }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'members.manage');
        requireVerified(actor, 'invite people');
        const { invitation, replaced } = await createInvitation(
          deps.orm,
          deps.mailer,
          deps.appUrl,
          { organizationId: actor.organizationId, userId: actor.userId, role: actor.role, audit: auditActorOf(actor) },
          body,
        );
        return { data: invitation, message: `invitation emailed to ${invitation.email}${replaced.length ? ' (it replaces the earlier one)' : ''}` };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/invitations/{id}',
      operationId: 'revokeInvitation',
      summary: 'Revoke a pending invitation (Billing Owner, Account Admin)',
      params: IdParams,
      success: {
        status: 200,
        description: 'revoked: its link no longer works',
        schema: z.object({ id: z.uuid(), email: z.string(), revoked: z.literal(true) }),
      },
      errors: { ...ADMIN_ERRORS, 404: 'no such invitation in this workspace', 409: 'invitation_accepted: remove the member instead' },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'members.manage');
        const { changed, ...revoked } = await revokeInvitation(deps.orm, { organizationId: actor.organizationId, audit: auditActorOf(actor) }, params.id);
        return { data: revoked, message: changed ? `invitation to ${revoked.email} revoked` : `the invitation to ${revoked.email} was already revoked` };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/plan',
      operationId: 'getPlan',
      summary: 'The workspace’s plan, its limits and this month’s usage (any member)',
      success: { status: 200, description: 'plan, limits (null: unlimited) and usage', schema: PlanSchema },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const view = await getPlanView(deps.orm, actor.organizationId);
        return { data: view, message: `${view.plan} plan` };
      },
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/plan',
      operationId: 'changePlan',
      summary: 'Change the plan (Billing Owner only); an upgrade needs billing (PLAN_SELF_SERVE=true, else 403 billing_not_configured)',
      body: PlanBody,
      success: {
        status: 200,
        description: 'the plan as changed; a downgrade below usage keeps what exists and refuses new creations over the limit',
        schema: PlanSchema,
      },
      errors: {
        ...ADMIN_ERRORS,
        403: `${ADMIN_ERRORS[403]}; billing_not_configured: an upgrade, and this installation takes no payment (the operator changes plans with klaxon org plan)`,
      },
      handler: async (ctx, { body }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'plan.change');
        const { view, changed, from, over } = await changePlan(deps.orm, {
          organizationId: actor.organizationId,
          actor: auditActorOf(actor),
          plan: body.plan,
          upgrades: deps.planSelfServe ? 'allowed' : 'need_billing',
        });
        const base = changed ? `plan changed from ${from} to ${view.plan}` : `the workspace already is on ${view.plan}; nothing changed`;
        const note = over.length
          ? `. Over the new limits: ${over.join('; ')}. What exists stays; new creations over a limit are refused (403 plan_limit_reached) until usage fits`
          : '';
        return { data: view, message: base + note };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/resend-verification',
      operationId: 'resendVerification',
      summary: `Email a new verification link to the signed-in account (at most ${VERIFICATION_RESEND_LIMITS.perAccount} an hour)`,
      success: { status: 200, description: 'a new link is on its way to the account’s address (no body needed)', schema: z.null() },
      errors: { ...ADMIN_ERRORS, 409: 'already_verified', 429: 'rate_limited: too many requests this hour; Retry-After says when to try again' },
      handler: async (ctx) => {
        const actor = adminActorOf(ctx);
        if (actor.verified) throw conflict('this email address is already verified', 'already_verified');
        await deps.throttles.verificationResend.take(actor.userId);
        const { email } = await resendVerification(deps.orm, deps.mailer, deps.appUrl, actor.userId);
        return { data: null, message: `a new verification link was emailed to ${email}` };
      },
    }),
  ];
}

/** The invitation link's route: no session (the invited person may have no account yet). */
export function invitationPublicRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/invitations/accept',
      operationId: 'acceptInvitation',
      summary: 'Accept an invitation (no session): a new address sets a password (and name); an existing account gives its current password',
      body: AcceptBody,
      success: { status: 200, description: 'the workspace joined and the role; log in next', schema: AcceptedSchema },
      errors: {
        400: 'invitation_invalid (unknown, expired, revoked or used link: one message); or the field named in `error` (password missing or too weak)',
        401: 'password: not the current password of the existing account',
        403: 'plan_limit_reached: the workspace has no seat left',
        409: 'already_member; email_taken (the address signed up meanwhile: accept again with its password)',
        503: ADMIN_ERRORS[503],
      },
      handler: async (ctx, { body }) => {
        const accepted = await acceptInvitation(deps.orm, body, { ip: ctx.ip });
        return { data: accepted, message: `you joined ${accepted.organization.name} as ${accepted.role}; log in to continue` };
      },
    }),
  ];
}
