import { z } from 'zod';
import { PLANS } from '../../../src/domain/plans';
import { ROLES } from '../../../src/domain/roles';
import {
  changePassword,
  login,
  logout,
  logoutEverywhere,
  requestPasswordReset,
  resetPassword,
  sessionViewOf,
  signup,
  switchWorkspace,
  verifyEmail,
  workspacesOf,
} from '../../../src/services/accounts';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';
import { clearSessionCookie, setSessionCookie } from '../cookies';
import { sessionOf } from '../guards';
import { ChangePasswordBody, EmptyBody, LoginBody, PasswordResetBody, PasswordResetRequestBody, SignupBody, VerifyBody } from '../schemas';

export type AuthDeps = AdminDeps;

const UserSchema = z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable(), verified: z.boolean() });
const OrganizationSchema = z.object({ id: z.uuid(), name: z.string(), plan: z.enum(PLANS) });
const AccountSchema = z.object({ user: UserSchema, organization: OrganizationSchema, role: z.enum(ROLES) });
/** The `data` of login and GET /api/auth/session (docs/architecture.md, "Workspaces, roles and credentials"). */
export const SessionViewSchema = AccountSchema.extend({ csrf_token: z.string().describe('echo it in X-CSRF-Token on every state-changing request') });

const SwitchWorkspaceBody = z.object({ organization_id: z.uuid('must be a workspace id (UUID)') }).strict();

const LIMITED = 'rate_limited: too many attempts: wait `Retry-After` seconds';
const UNAVAILABLE = 'service_unavailable: the database cannot be reached; nothing was changed';

/**
 * The account routes of docs/architecture.md, "Workspaces, roles and credentials": sign-up, verification, login, session, logout, password
 * change and reset. `open` need no session; `session` do (and the CSRF header when they change state).
 * Throttled ones answer 429 `rate_limited` with Retry-After (the listener maps `Throttled`).
 */
export function authRoutes(deps: AuthDeps): { open: RouteSpec[]; session: RouteSpec[] } {
  const { throttles } = deps;
  const client = (ctx: { ip: string; get(h: string): string }) => ({ ip: ctx.ip, userAgent: ctx.get('User-Agent') });

  const open = [
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/signup',
      summary: 'Sign up: a FREE workspace with you as its Billing Owner; a verification link is emailed',
      operationId: 'signup',
      body: SignupBody,
      success: { status: 201, description: 'the account, not yet verified (log in next)', schema: AccountSchema },
      errors: {
        400: 'invalid field (named), or a weak password',
        403: 'csrf_failed: cross-site Origin',
        409: 'email_taken',
        429: 'rate_limited: too many sign-ups from this client address this hour; wait `Retry-After` seconds (nothing was created)',
        503: UNAVAILABLE,
      },
      handler: async (ctx, { body }) => ({
        data: await signup(deps.orm, deps.mailer, deps.appUrl, body, { ip: ctx.ip, throttle: throttles.signup }),
        message: 'account created; open the link we emailed to verify the address',
      }),
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/verify',
      summary: 'Verify an email address with the token of the emailed link',
      operationId: 'verifyEmail',
      body: VerifyBody,
      success: { status: 200, description: 'verified', schema: z.object({ verified: z.literal(true) }) },
      errors: { 400: 'unknown, used or expired token', 503: UNAVAILABLE },
      handler: async (_ctx, { body }) => ({ data: await verifyEmail(deps.orm, body.token), message: 'email address verified' }),
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/login',
      summary: 'Log in: sets the __Host-klaxon_session cookie and answers the CSRF value',
      operationId: 'login',
      body: LoginBody,
      success: {
        status: 200,
        description: 'signed in; Set-Cookie: __Host-klaxon_session=…; Path=/; Secure; HttpOnly; SameSite=Lax',
        schema: SessionViewSchema,
      },
      errors: {
        400: 'invalid field (named)',
        401: 'wrong email or password (one message); totp_required when two-factor is on and no code came; totp_invalid for a wrong or reused code',
        429: LIMITED,
        503: UNAVAILABLE,
      },
      handler: async (ctx, { body }) => {
        const { cookieValue, ...view } = await login(deps.orm, throttles.login, body, client(ctx), deps.webhooks.sealer);
        setSessionCookie(ctx, cookieValue);
        return { data: view, message: 'logged in' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/password-reset',
      summary: 'Ask for a password-reset link by email (the same answer whether or not the account exists)',
      operationId: 'requestPasswordReset',
      body: PasswordResetRequestBody,
      success: { status: 202, description: 'accepted: an email goes out if the account exists (at most 3 an hour)', schema: z.null() },
      errors: { 400: 'invalid email', 429: LIMITED, 503: UNAVAILABLE },
      handler: async (ctx, { body }) => {
        await requestPasswordReset(deps.orm, deps.mailer, deps.appUrl, body, { ip: ctx.ip, throttle: throttles.passwordReset });
        return { data: null, message: 'if an account has this address, a reset link is on its way' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/password-reset/confirm',
      summary: 'Set a new password with the token of the emailed reset link; every session ends',
      operationId: 'resetPassword',
      body: PasswordResetBody,
      success: { status: 200, description: 'password changed', schema: z.null() },
      errors: { 400: 'unknown, used or expired token; weak password', 503: UNAVAILABLE },
      handler: async (_ctx, { body }) => {
        await resetPassword(deps.orm, body);
        return { data: null, message: 'password changed; log in with the new one' };
      },
    }),
  ];

  const session = [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/auth/session',
      summary: 'Who is signed in, in which workspace, with which role; the CSRF value',
      operationId: 'getSession',
      success: { status: 200, description: 'the session', schema: SessionViewSchema },
      errors: { 401: 'not signed in, or the session expired', 503: UNAVAILABLE },
      handler: async (ctx) => {
        const view = sessionViewOf(sessionOf(ctx as never));
        return { data: view, message: 'signed in' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/logout',
      summary: 'End this session',
      operationId: 'logout',
      body: EmptyBody,
      success: { status: 200, description: 'logged out; the cookie is cleared', schema: z.null() },
      errors: { 401: 'not signed in', 403: 'csrf_failed', 503: UNAVAILABLE },
      handler: async (ctx) => {
        await logout(deps.orm, sessionOf(ctx as never).sessionId);
        clearSessionCookie(ctx as never);
        return { data: null, message: 'logged out' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/logout-everywhere',
      summary: 'End every session of this account, on every device',
      operationId: 'logoutEverywhere',
      body: EmptyBody,
      success: { status: 200, description: 'how many sessions ended', schema: z.object({ sessions_ended: z.number().int() }) },
      errors: { 401: 'not signed in', 403: 'csrf_failed', 503: UNAVAILABLE },
      handler: async (ctx) => {
        const ended = await logoutEverywhere(deps.orm, sessionOf(ctx as never).user.id);
        clearSessionCookie(ctx as never);
        return { data: { sessions_ended: ended }, message: `logged out of ${ended} session(s)` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/password',
      summary: 'Change the password (the current one is checked); the session is rotated and every other one ends',
      operationId: 'changePassword',
      body: ChangePasswordBody,
      success: { status: 200, description: 'the new session (new cookie and CSRF value)', schema: SessionViewSchema },
      errors: { 400: 'weak new password', 401: 'wrong current password, or not signed in', 403: 'csrf_failed', 429: LIMITED, 503: UNAVAILABLE },
      handler: async (ctx, { body }) => {
        const { cookieValue, ...view } = await changePassword(deps.orm, throttles.login, sessionOf(ctx as never), body, client(ctx));
        setSessionCookie(ctx as never, cookieValue);
        return { data: view, message: 'password changed; every other session has been logged out' };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/auth/workspaces',
      summary: 'The workspaces you belong to, with your role in each; `current` is this session’s',
      operationId: 'listMyWorkspaces',
      success: {
        status: 200,
        description: 'your workspaces, in the order you joined them',
        schema: z.array(OrganizationSchema.extend({ role: z.enum(ROLES), current: z.boolean() })),
      },
      errors: { 401: 'not signed in', 503: UNAVAILABLE },
      handler: async (ctx) => ({ data: await workspacesOf(deps.orm, sessionOf(ctx as never)) }),
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/switch-workspace',
      summary: 'Move this session to another of your workspaces (new cookie and CSRF value; the old session ends)',
      operationId: 'switchWorkspace',
      body: SwitchWorkspaceBody,
      success: { status: 200, description: 'the new session', schema: SessionViewSchema },
      errors: { 400: 'organization_id is not a UUID', 401: 'not signed in', 403: 'csrf_failed', 404: 'not one of your workspaces', 503: UNAVAILABLE },
      handler: async (ctx, { body }) => {
        const { cookieValue, ...view } = await switchWorkspace(deps.orm, sessionOf(ctx as never), body.organization_id, client(ctx));
        setSessionCookie(ctx as never, cookieValue);
        return { data: view, message: `now in ${view.organization.name}` };
      },
    }),
  ];
  return { open, session };
}
