/** FCM's paging channel, declared (pure): Android push to an opaque registration token. */
import { deviceToken } from '../../domain/addresses';
import type { ChannelDeclaration } from '../channel';
import { PUSH_FORM_B, renderPush, renderPushDrill, renderPushTest } from '../push';

export const fcmChannels = {
  push_android: {
    label: 'Android push',
    bannerLabel: 'Android',
    address: { label: 'Registration token', placeholder: 'FCM registration token' },
    normalise: deviceToken,
    formB: PUSH_FORM_B,
    quota: null,
    providers: ['fcm'],
    credentials: 'FCM_SERVICE_ACCOUNT',
    replyCodes: false,
    render: renderPush,
    renderDrill: renderPushDrill,
    renderTest: renderPushTest,
  },
} as const satisfies Record<string, ChannelDeclaration<'fcm'>>;
