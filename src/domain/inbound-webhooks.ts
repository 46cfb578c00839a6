import { can } from './permissions';
import type { Role } from './roles';

/** The dashboard's names for a webhook's channels (spec "Webhook"), in Form B channel order. */
const NOTIFICATION_TYPE: Readonly<Record<string, string>> = { sms: 'SMS', voice: 'CALL', email: 'EMAIL', push: 'PUSH_NOTIF' };

/** `['sms', 'email']` → `['SMS', 'EMAIL']`. */
export const notificationTypesOf = (channels: readonly string[]): string[] => channels.map((c) => NOTIFICATION_TYPE[c] ?? c.toUpperCase());

export const WEBHOOK_NAME = { min: 3, max: 255 } as const;
export const WEBHOOK_STATUSES = ['ACTIVE', 'PAUSED'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/**
 * Who may create, change or delete a webhook (issue 12): an Account Admin or Billing Owner, or a
 * Team Manager who is in the team owning the webhook's service.
 */
export function canManageWebhook(role: Role, inOwningTeam: boolean): boolean {
  return can(role, 'sources.manage', { inOwningTeam });
}

/** An alias from a name: `Prod DB alerts!` → `prod-db-alerts`. */
export const aliasOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    // Runs are one dash by now: a single one at each end (`-+$` would be quadratic on dashes).
    .replace(/^-|-$/g, '')
    .slice(0, 64) || 'webhook';
