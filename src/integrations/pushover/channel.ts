/**
 * The Pushover paging channel, declared (pure; docs/integrations/pushover.md). The address is the
 * person's user key. A critical page goes out at emergency priority 2: the phone alarms every
 * `retry` seconds until someone acknowledges it in the app or `expire` passes, and Pushover then
 * POSTs its receipt to `callback` (hooks.ts), which acknowledges the incident as that person.
 * Other pages go at high priority 1. A drill is an emergency too, acknowledged the same way.
 */
import type { AddressResult } from '../../domain/addresses';
import { DRILL_MARK } from '../../domain/drill-mark';
import { pageSubject } from '../../domain/paging/messages';
import type { ChannelDeclaration } from '../channel';

/** Seconds between the alarms of an emergency page (Pushover's floor is 30). */
export const EMERGENCY_RETRY_SECONDS = 60;
/** How long an emergency page keeps alarming, in seconds. */
export const EMERGENCY_EXPIRE_SECONDS = 3600;
/** A drill alarms only as long as its acknowledgement counts (docs/drills.md). */
const DRILL_EXPIRE_SECONDS = 600;
/** Pushover's limits on a message's title and body. */
const TITLE_MAX = 250;
const MESSAGE_MAX = 1024;

/** The receipt callback of a page or drill: Klaxon's hook with the signed one-use token (hooks.ts). */
export const receiptCallback = (appUrl: string, token: string) => `${appUrl}/hooks/pushover/receipt/${token}`;

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** A user (or group) key: 30 letters and digits. It is the person's Pushover identity, so messages never repeat it. */
function userKey(value: string): AddressResult {
  return /^[A-Za-z0-9]{30}$/.test(value)
    ? { ok: true, address: value }
    : { ok: false, message: 'must be a Pushover user key for pushover: 30 letters and digits, from the Pushover app or pushover.net' };
}

export const pushoverChannels = {
  pushover: {
    label: 'Pushover',
    bannerLabel: 'Pushover',
    address: { label: 'Pushover user key', placeholder: '30 letters and digits (pushover.net, "Your User Key")' },
    normalise: userKey,
    formB: null,
    quota: null,
    providers: ['pushover'],
    credentials: 'PUSHOVER_APP_TOKEN',
    replyCodes: false,
    render: (p) => {
      const emergency = p.incident.severity === 'CRITICAL';
      return {
        subject: clip(pageSubject(p.subject), TITLE_MAX),
        text: clip(
          `${p.incident.severity} incident #${p.incident.number}: ${p.incident.title}${p.incident.serviceName ? ` (${p.incident.serviceName})` : ''}`,
          MESSAGE_MAX,
        ),
        extra: {
          url: p.subject.url,
          url_title: `Open incident #${p.incident.number}`,
          ...(emergency
            ? {
                priority: '2',
                retry: String(EMERGENCY_RETRY_SECONDS),
                expire: String(EMERGENCY_EXPIRE_SECONDS),
                callback: receiptCallback(p.appUrl, p.sign('acknowledge')),
                sound: 'siren',
              }
            : { priority: '1' }),
        },
      };
    },
    renderDrill: (d) => ({
      subject: `${DRILL_MARK}: no incident`,
      text: 'Test page: no incident. Acknowledge to pass the drill.',
      extra: {
        priority: '2',
        retry: String(EMERGENCY_RETRY_SECONDS),
        expire: String(DRILL_EXPIRE_SECONDS),
        callback: receiptCallback(d.appUrl, d.ackToken),
      },
    }),
    renderTest: (t) => ({ subject: clip(t.message.subject, TITLE_MAX), text: clip(t.message.text, MESSAGE_MAX), extra: { priority: '0' } }),
  },
} as const satisfies Record<string, ChannelDeclaration<'pushover'>>;
