/** Uptime Kuma's "Webhook" notification with the JSON body. */
import { at, compact, hasKeys, isObject, presentEntries, text } from '../shape';
import type { EventAction, EventSeverity, NativeSender, NormalisedEvent } from '../types';

// Heartbeat status codes: DOWN 0, UP 1, PENDING 2, MAINTENANCE 3. Pending is a retry still
// in progress and maintenance is planned: both are acknowledged without paging.
const STATUS: Readonly<Record<string, { action: EventAction; severity: EventSeverity }>> = {
  '0': { action: 'trigger', severity: 'critical' },
  '1': { action: 'resolve', severity: 'info' },
  '2': { action: 'ignore', severity: 'warning' },
  '3': { action: 'ignore', severity: 'info' },
};

/** Uptime Kuma: `heartbeat`, `monitor` and `msg` keys (the first two null on test sends). */
export const uptimeKumaSender: NativeSender = {
  name: 'uptime-kuma',
  detect: (body) => hasKeys(body, ['heartbeat', 'monitor', 'msg']),
  normalise: (body) => {
    const monitor = at(body, 'monitor');
    const heartbeat = at(body, 'heartbeat');
    const msg = text(at(body, 'msg'));
    const status = text(at(heartbeat, 'status'));
    if (!isObject(heartbeat) || status === undefined || !Object.hasOwn(STATUS, status)) return [withoutHeartbeat(monitor, msg)];
    return [
      compact<NormalisedEvent>({
        source: 'uptime-kuma',
        ...STATUS[status],
        title: text(at(monitor, 'name')) ?? msg ?? 'Uptime Kuma monitor',
        dedupKey: text(at(monitor, 'id')) ?? text(at(heartbeat, 'monitorID')) ?? null,
        message: text(at(heartbeat, 'msg')) ?? msg,
        links: presentEntries({ target: text(at(monitor, 'url')) }),
        metadata: presentEntries({ monitorType: text(at(monitor, 'type')) }),
      }),
    ];
  },
};

// No heartbeat: the "Test" button (monitor null too) or a monitor notice such as a
// certificate expiry. Shown once, with no key, so a test visibly arrives.
function withoutHeartbeat(monitor: unknown, msg: string | undefined): NormalisedEvent {
  const isTest = !isObject(monitor);
  return compact<NormalisedEvent>({
    source: 'uptime-kuma',
    action: 'trigger',
    title: msg ?? (isTest ? 'Uptime Kuma test notification' : 'Uptime Kuma notification'),
    severity: isTest ? 'info' : 'warning',
    dedupKey: null,
    message: msg,
  });
}
