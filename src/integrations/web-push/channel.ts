/**
 * Web Push's paging channel, declared (pure): the address is the browser's PushSubscription JSON,
 * which holds keys and a capability URL, so people only ever see its push service's host.
 */
import { webPushSubscription } from '../../domain/addresses';
import type { ChannelDeclaration } from '../channel';
import { PUSH_FORM_B, renderPush, renderPushDrill, renderPushTest } from '../push';

/** "browser via fcm.googleapis.com": a subscription as the timeline and trace show it. */
function subscriptionHost(address: string): string {
  try {
    const host = /^https:\/\/([^/?#\s]+)/i.exec((JSON.parse(address) as { endpoint?: unknown }).endpoint as string)?.[1];
    return host ? `browser via ${host}` : 'browser';
  } catch {
    return 'browser';
  }
}

export const webPushChannels = {
  push_web: {
    label: 'Web push',
    bannerLabel: 'web push',
    address: { label: 'Browser subscription', placeholder: 'Added from the browser itself ("Push on this device")' },
    normalise: webPushSubscription,
    display: subscriptionHost,
    formB: PUSH_FORM_B,
    quota: null,
    providers: ['web-push'],
    credentials: 'WEB_PUSH_VAPID_PUBLIC_KEY, WEB_PUSH_VAPID_PRIVATE_KEY (optional: generated into the data folder)',
    replyCodes: false,
    render: renderPush,
    renderDrill: renderPushDrill,
    renderTest: renderPushTest,
  },
} as const satisfies Record<string, ChannelDeclaration<'web-push'>>;
