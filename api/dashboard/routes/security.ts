import type { Context } from 'koa';
import { z } from 'zod';
import { ROLES } from '../../../src/domain/roles';
import { PLANS } from '../../../src/domain/plans';
import {
  confirmTotpEnrolment,
  disableTotp,
  MAX_PASSWORD_LENGTH,
  regenerateRecoveryCodes,
  requireStepUp,
  startTotpEnrolment,
  stepUp,
  twoFactorStatus,
  type StepUpDeps,
} from '../../../src/services/accounts';
import { conflict } from '../../../src/services/errors';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, type AdminDeps } from '../admin-kit';
import { setSessionCookie } from '../cookies';
import { sessionOf } from '../guards';

/** The proof fields a sensitive request may carry inline (give one): password, TOTP code or recovery code. */
export const FactorFields = {
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH).optional(),
  totp_code: z.string().min(1).max(16).optional(),
  recovery_code: z.string().min(1).max(32).optional(),
};

const FactorBody = z.object(FactorFields).strict();
const ConfirmBody = z.object({ code: z.string().min(1).max(16) }).strict();

const StatusSchema = z.object({ enabled: z.boolean(), enabled_at: z.iso.datetime().nullable(), recovery_codes_left: z.number().int() });
const SetupSchema = z.object({ otpauth_uri: z.string(), secret: z.string(), qr_svg: z.string() });
const RecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
const SessionSchema = z.object({
  user: z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable(), verified: z.boolean() }),
  organization: z.object({ id: z.uuid(), name: z.string(), plan: z.enum(PLANS) }),
  role: z.enum(ROLES),
  csrf_token: z.string(),
});
const StepUpSchema = z.object({ stepped_up_at: z.iso.datetime(), fresh_until: z.iso.datetime() });

/** Errors of routes that check a factor. */
export const STEP_UP_ERRORS = {
  ...ADMIN_ERRORS,
  403: `${ADMIN_ERRORS[403]}; step_up_failed (the password or code is not right); step_up_required (no factor sent and no step-up in the last 5 minutes)`,
  429: 'rate_limited: more than 5 failed step-ups for the account in 15 minutes; Retry-After says when to try again',
} as const;

/** What checking a second factor needs, for these routes and the credentials routes. */
export const stepUpDepsOf = (deps: AdminDeps): StepUpDeps => ({ orm: deps.orm, sealer: deps.webhooks.sealer, throttle: deps.throttles.stepUp });

/** Two-factor (TOTP) enrolment, recovery codes and step-up under /api. */
export function securityRoutes(deps: AdminDeps): RouteSpec[] {
  const stepUpDeps = stepUpDepsOf(deps);
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/auth/2fa',
      summary: 'Whether two-factor authentication is on (any member, for themselves)',
      operationId: 'getTwoFactor',
      success: { status: 200, description: 'two-factor status and how many recovery codes are left', schema: StatusSchema },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => ({ data: await twoFactorStatus(deps.orm, adminActorOf(ctx).userId) }),
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/2fa/setup',
      summary:
        'Start two-factor enrolment: a new TOTP secret as an otpauth URI and a QR code (needs a step-up: the password in the body, or one in the last 5 minutes)',
      operationId: 'setupTwoFactor',
      body: FactorBody,
      success: { status: 200, description: 'the secret to add to an authenticator app; confirm with a code to turn two-factor on', schema: SetupSchema },
      errors: { ...STEP_UP_ERRORS, 409: 'two_factor_enabled: two-factor is already on' },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        if ((await twoFactorStatus(deps.orm, actor.userId)).enabled) throw conflict('two-factor authentication is already on', 'two_factor_enabled');
        // A borrowed session must not put its holder's authenticator on the account (and lock its owner out).
        await requireStepUp(stepUpDeps, sessionOf(ctx as never), body, actor.ip);
        return {
          data: await startTotpEnrolment(deps.orm, deps.webhooks.sealer, { id: actor.userId, email: actor.email }),
          message: 'scan the QR code, then confirm with a code',
        };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/2fa/confirm',
      summary: 'Turn two-factor on with a code from the app; answers ten recovery codes once and rotates the session',
      operationId: 'confirmTwoFactor',
      body: ConfirmBody,
      success: {
        status: 200,
        description: 'the new session (a new cookie is set; the old one has ended) and the recovery codes',
        schema: SessionSchema.extend(RecoveryCodesSchema.shape),
      },
      errors: {
        ...ADMIN_ERRORS,
        400: 'totp_invalid: the code is not the current one; or invalid input',
        409: 'two_factor_enabled; two_factor_not_started (call setup first)',
      },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        const { cookieValue, ...data } = await confirmTotpEnrolment(deps.orm, deps.webhooks.sealer, sessionOf(ctx as never), body.code, {
          ip: actor.ip,
          userAgent: ctx.get('User-Agent'),
          actor: auditActorOf(actor),
        });
        setSessionCookie(ctx as unknown as Context, cookieValue);
        return { data, message: 'two-factor authentication is on; keep the recovery codes somewhere safe: they are shown once' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/2fa/disable',
      summary: 'Turn two-factor off (give the password, a TOTP code or a recovery code); deletes the recovery codes',
      operationId: 'disableTwoFactor',
      body: FactorBody,
      success: { status: 200, description: 'two-factor is off', schema: StatusSchema },
      errors: { ...STEP_UP_ERRORS, 409: 'two_factor_disabled: two-factor is not on' },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        if (!(await twoFactorStatus(deps.orm, actor.userId)).enabled) throw conflict('two-factor authentication is not on', 'two_factor_disabled');
        await stepUp(stepUpDeps, sessionOf(ctx as never), body, actor.ip);
        await disableTotp(deps.orm, sessionOf(ctx as never), auditActorOf(actor));
        return { data: await twoFactorStatus(deps.orm, actor.userId), message: 'two-factor authentication is off' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/2fa/recovery-codes',
      summary: 'Replace the ten recovery codes (needs a step-up: a factor in the body, or one in the last 5 minutes)',
      operationId: 'regenerateRecoveryCodes',
      body: FactorBody,
      success: { status: 200, description: 'the new codes, shown once; the old ones no longer work', schema: RecoveryCodesSchema },
      errors: { ...STEP_UP_ERRORS, 409: 'two_factor_disabled: two-factor is not on' },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        if (!(await twoFactorStatus(deps.orm, actor.userId)).enabled)
          throw conflict('two-factor authentication is not on: recovery codes come with it', 'two_factor_disabled');
        await requireStepUp(stepUpDeps, sessionOf(ctx as never), body, actor.ip);
        const codes = await regenerateRecoveryCodes(deps.orm, sessionOf(ctx as never), auditActorOf(actor));
        return { data: { recovery_codes: codes }, message: 'new recovery codes; the old ones no longer work' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/auth/step-up',
      summary: 'Confirm it is you (exactly one of password, totp_code, recovery_code): sensitive actions are allowed for 5 minutes',
      operationId: 'stepUp',
      body: FactorBody,
      success: { status: 200, description: 'the session is stepped up until fresh_until', schema: StepUpSchema },
      errors: { ...STEP_UP_ERRORS, 403: 'step_up_failed: the password or code is not right; csrf_failed' },
      handler: async (ctx, { body }) => ({
        data: await stepUp(stepUpDeps, sessionOf(ctx as never), body, adminActorOf(ctx).ip),
        message: 'confirmed for 5 minutes',
      }),
    }),
  ];
}
