/**
 * UptimeRobot webhook alert contacts. UptimeRobot has no JSON of its own: the customer pastes
 * our template (`*monitorID*`, `*alertType*`, ...) as JSON, or sends the variables as a form
 * or query string, which reach us as the same object (body.ts `readBody`).
 */
import { compact, hasKeys, presentEntries, text } from '../shape';
import type { EventAction, EventSeverity, NativeSender, NormalisedEvent } from '../types';

const KEYS = ['monitorID', 'alertType', 'monitorFriendlyName'] as const;

// alertType: 1 down, 2 up, 3 SSL certificate expiry notice.
const ALERT_TYPE: Readonly<Record<string, { action: EventAction; severity: EventSeverity }>> = {
  '1': { action: 'trigger', severity: 'critical' },
  '2': { action: 'resolve', severity: 'info' },
  '3': { action: 'trigger', severity: 'warning' },
};

/** UptimeRobot: `monitorID`, `alertType` and `monitorFriendlyName` (JSON, form or query string). */
export const uptimeRobotSender: NativeSender = {
  name: 'uptimerobot',
  detect: (body) => hasKeys(body, KEYS),
  normalise: (body) => {
    if (!hasKeys(body, KEYS)) return [];
    const fields = body;
    const alertType = text(fields.alertType) ?? '';
    const mapped = Object.hasOwn(ALERT_TYPE, alertType) ? ALERT_TYPE[alertType] : ({ action: 'trigger', severity: 'warning' } as const);
    return [
      compact<NormalisedEvent>({
        source: 'uptimerobot',
        ...mapped,
        title: text(fields.monitorFriendlyName) ?? 'UptimeRobot monitor',
        dedupKey: text(fields.monitorID) ?? null,
        message: text(fields.alertDetails),
        links: presentEntries({ target: text(fields.monitorURL) }),
        metadata: presentEntries({ alertType: text(fields.alertTypeFriendlyName), duration: text(fields.alertFriendlyDuration) }),
      }),
    ];
  },
};
