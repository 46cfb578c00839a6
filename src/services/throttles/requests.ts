/** Throttles that count every request they let through (no secret is checked): sign-ups, emails, test notifications. */
import type { Knex } from '@mikro-orm/postgresql';
import { throttleKeyOf } from '../../domain/throttle-key';
import { Counter, Throttled } from './counter';
import { PASSWORD_RESET_LIMITS, TEST_NOTIFICATION_LIMITS } from './limits';

/** One limit per subject: past it, Throttled. */
export class RequestThrottle {
  private readonly counter: Counter;

  constructor(
    knex: Knex,
    name: string,
    points: number,
    windowSeconds: number,
    private readonly refusal: (retryAfterSeconds: number) => string,
  ) {
    this.counter = new Counter(knex, name, points, windowSeconds);
  }

  /** Counts one request of `subject`; throws Throttled past the limit. */
  async take(subject: string): Promise<void> {
    const wait = (await this.counter.spent(subject)) ?? (await this.counter.take(subject));
    if (wait !== null) throw new Throttled(wait, this.refusal(wait));
  }
}

/** A limit per client IP: an IPv4 address, or an IPv6 client's /64 (`throttleKeyOf`). */
export class ClientIpThrottle {
  private readonly requests: RequestThrottle;

  constructor(knex: Knex, name: string, points: number, windowSeconds: number, refusal: (retryAfterSeconds: number) => string) {
    this.requests = new RequestThrottle(knex, name, points, windowSeconds, refusal);
  }

  /** Counts one request from `clientIp`; throws Throttled past the limit. */
  take(clientIp: string): Promise<void> {
    return this.requests.take(throttleKeyOf(clientIp));
  }
}

/**
 * Keeps password reset links from becoming a way to flood someone's inbox: a cap per client IP
 * (past it, Throttled), then a few emails per address. Over the address cap the request is
 * answered as any other (no hint whether the address has an account) and nothing is sent.
 */
export class PasswordResetThrottle {
  private readonly address: Counter;
  private readonly ip: Counter;

  constructor(knex: Knex) {
    const { perAddress, perIp, windowSeconds } = PASSWORD_RESET_LIMITS;
    this.address = new Counter(knex, 'reset-address', perAddress, windowSeconds);
    this.ip = new Counter(knex, 'reset-ip', perIp, windowSeconds);
  }

  /** Throws Throttled when the client IP (its throttle key) is over its cap; else whether an email may go to `email` (normalised). */
  async take(email: string, clientIp: string): Promise<boolean> {
    const ip = throttleKeyOf(clientIp);
    const wait = (await this.ip.spent(ip)) ?? (await this.ip.take(ip));
    if (wait !== null) throw new Throttled(wait, `too many password reset requests; retry in ${wait} s`);
    return (await this.address.spent(email)) === null && (await this.address.take(email)) === null;
  }
}

/** What a refused test notification says (the route documents its 429 with it). */
export const TEST_NOTIFICATION_REFUSAL = `at most ${TEST_NOTIFICATION_LIMITS.perWebhookPerMinute} test per webhook a minute and ${TEST_NOTIFICATION_LIMITS.perWorkspacePerHour} per workspace an hour (Retry-After); nothing was sent`;

/** Test notifications per webhook and per workspace; a test refused by either takes nothing from the other. */
export class TestNotificationThrottle {
  private readonly perWebhook: Counter;
  private readonly perWorkspace: Counter;

  constructor(knex: Knex) {
    this.perWebhook = new Counter(knex, 'webhook-test', TEST_NOTIFICATION_LIMITS.perWebhookPerMinute, 60);
    this.perWorkspace = new Counter(knex, 'webhook-test-workspace', TEST_NOTIFICATION_LIMITS.perWorkspacePerHour, 3600);
  }

  /** Counts one test of the webhook; throws Throttled when the webhook or the workspace is over its limit. */
  async take(organizationId: string, webhookId: string): Promise<void> {
    const spent = (await Promise.all([this.perWebhook.spent(webhookId), this.perWorkspace.spent(organizationId)])).filter((s) => s !== null);
    if (spent.length) throw this.refused(Math.max(...spent));
    const webhookWait = await this.perWebhook.take(webhookId);
    if (webhookWait !== null) throw this.refused(webhookWait);
    const workspaceWait = await this.perWorkspace.take(organizationId);
    if (workspaceWait !== null) {
      await this.perWebhook.giveBack(webhookId);
      throw this.refused(workspaceWait);
    }
  }

  private refused(wait: number): Throttled {
    return new Throttled(wait, `too many test notifications: ${TEST_NOTIFICATION_REFUSAL}`);
  }
}
