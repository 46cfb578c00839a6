/**
 * Every throttle's limit and window, in one place (README, "Login throttling"). Each window is
 * fixed: it starts with the first point counted and ends `windowSeconds` later, whatever
 * happens in it. Imports nothing, so src/config.ts can take the sign-up default from here.
 */

/** A secret checked against an account (password, TOTP or recovery code): failures allowed per account and per client IP. */
export interface AttemptLimits {
  perAccount: number;
  perIp: number;
  windowSeconds: number;
}

/** Failed logins (and failed password changes, which check the same password): 5 per account, 20 per IP in 15 minutes. */
export const LOGIN_LIMITS: AttemptLimits = { perAccount: 5, perIp: 20, windowSeconds: 15 * 60 };

/** Failed step-ups, counted apart from logins: a locked step-up does not stop a login, nor the other way round. */
export const STEP_UP_LIMITS: AttemptLimits = { perAccount: 5, perIp: 20, windowSeconds: 15 * 60 };

/** Password reset emails per address (more are answered alike, unsent) and reset requests per client IP (more are 429), an hour. */
export const PASSWORD_RESET_LIMITS = { perAddress: 3, perIp: 20, windowSeconds: 60 * 60 } as const;

/** Verification emails one account may ask for again in an hour. */
export const VERIFICATION_RESEND_LIMITS = { perAccount: 3, windowSeconds: 60 * 60 } as const;

/** Test notifications: one per webhook a minute, ten per workspace an hour, so a test cannot be used to spam a number. */
export const TEST_NOTIFICATION_LIMITS = { perWebhookPerMinute: 1, perWorkspacePerHour: 10 } as const;

/**
 * Test sends, every kind sharing one budget (a contact-method or push test, a Microsoft Teams test card, a
 * one-off drill): 5 per member in 10 minutes and 30 per workspace an hour, so no one can use them
 * to flood a phone or a channel. Webhook test notifications keep TEST_NOTIFICATION_LIMITS.
 */
export const TEST_SEND_LIMITS = { perUser: 5, perUserWindowSeconds: 10 * 60, perWorkspace: 30, perWorkspaceWindowSeconds: 60 * 60 } as const;

/** "Log in with SSO" starts per client IP (each stores a sign-in attempt for 10 minutes): 120 in 10 minutes. */
export const SSO_START_LIMITS = { perIp: 120, windowSeconds: 10 * 60 } as const;

/** Sign-ups one client IP may make in an hour, unless SIGNUP_RATE_LIMIT_PER_IP says otherwise. */
export const DEFAULT_SIGNUPS_PER_IP_PER_HOUR = 10;
export const SIGNUP_WINDOW_SECONDS = 60 * 60;
