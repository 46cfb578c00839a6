/**
 * Throttles (design rule: counted in PostgreSQL, atomically, attempts reserved before a secret
 * is checked): one set per API process, built over the ORM's connection pool and handed to every
 * route that throttles through its dependencies. Counts live in `throttle_counts`, so several
 * processes share them; the hourly retention purge deletes expired rows. Limits: ./limits.ts.
 * Every per-IP count keys the client by `throttleKeyOf` (src/domain/throttle-key.ts): IPv6 by /64.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { AttemptThrottle } from './attempts';
import { LOGIN_LIMITS, SIGNUP_WINDOW_SECONDS, SSO_START_LIMITS, STEP_UP_LIMITS, VERIFICATION_RESEND_LIMITS } from './limits';
import { ClientIpThrottle, PasswordResetThrottle, RequestThrottle, TestNotificationThrottle } from './requests';
import { TestSendThrottle } from './test-sends';

export { Throttled, THROTTLE_TABLE } from './counter';
export { AttemptThrottle, type Attempt } from './attempts';
export { RequestThrottle, ClientIpThrottle, PasswordResetThrottle, TestNotificationThrottle, TEST_NOTIFICATION_REFUSAL } from './requests';
export { TestSendThrottle, TEST_SEND_REFUSAL } from './test-sends';
export * from './limits';

/** Every throttle of the app listener. */
export interface Throttles {
  /** Failed logins and password changes, per account (email) and client IP. */
  login: AttemptThrottle;
  /** Failed step-ups, per account (user id) and client IP. */
  stepUp: AttemptThrottle;
  /** Reset requests per client IP, reset emails per address. */
  passwordReset: PasswordResetThrottle;
  /** Verification emails asked for again, per account (user id). */
  verificationResend: RequestThrottle;
  /** Test notifications per webhook and per workspace. */
  testNotification: TestNotificationThrottle;
  /** Every test send (contact-method and push tests, Microsoft Teams test cards, one-off drills), per member and per workspace. */
  testSend: TestSendThrottle;
  /** Sign-ups per client IP. */
  signup: ClientIpThrottle;
  /** Single sign-on starts per client IP (docs/sso.md). */
  ssoStart: ClientIpThrottle;
}

/** The throttles an operator may tune (src/config.ts: SIGNUP_RATE_LIMIT_PER_IP). */
export interface ThrottleSettings {
  signupsPerIpPerHour: number;
}

/** Builds the throttles over the ORM's pool; they hold no state of their own, so building them twice counts the same. */
export function createThrottles(orm: MikroORM, settings: ThrottleSettings): Throttles {
  const knex = knexOf(orm);
  return {
    login: new AttemptThrottle(knex, 'login', LOGIN_LIMITS, (s) => `too many failed logins; retry in ${s} s`),
    stepUp: new AttemptThrottle(knex, 'step-up', STEP_UP_LIMITS, (s) => `too many failed attempts to confirm it is you; retry in ${s} s`),
    passwordReset: new PasswordResetThrottle(knex),
    verificationResend: new RequestThrottle(
      knex,
      'resend-verification',
      VERIFICATION_RESEND_LIMITS.perAccount,
      VERIFICATION_RESEND_LIMITS.windowSeconds,
      (s) => `at most ${VERIFICATION_RESEND_LIMITS.perAccount} verification emails an hour; retry in ${s} s`,
    ),
    testNotification: new TestNotificationThrottle(knex),
    testSend: new TestSendThrottle(knex),
    signup: new ClientIpThrottle(
      knex,
      'signup-ip',
      settings.signupsPerIpPerHour,
      SIGNUP_WINDOW_SECONDS,
      (s) => `too many sign-ups from this address; retry in ${s} s`,
    ),
    ssoStart: new ClientIpThrottle(
      knex,
      'sso-start-ip',
      SSO_START_LIMITS.perIp,
      SSO_START_LIMITS.windowSeconds,
      (s) => `too many single sign-on attempts from this address; retry in ${s} s`,
    ),
  };
}
