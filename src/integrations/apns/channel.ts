/** APNs' paging channel, declared (pure): iOS push to a device token (64 hex, stored lower-case). */
import { apnsDeviceToken } from '../../domain/addresses';
import type { ChannelDeclaration } from '../channel';
import { PUSH_FORM_B, renderPush, renderPushDrill, renderPushTest } from '../push';

export const apnsChannels = {
  push_ios: {
    label: 'iOS push',
    bannerLabel: 'iOS push',
    address: { label: 'Device token', placeholder: 'APNs device token (64 hex characters)' },
    normalise: apnsDeviceToken,
    formB: PUSH_FORM_B,
    quota: null,
    providers: ['apns'],
    credentials: 'APNS_KEY, APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC',
    replyCodes: false,
    render: renderPush,
    renderDrill: renderPushDrill,
    renderTest: renderPushTest,
  },
} as const satisfies Record<string, ChannelDeclaration<'apns'>>;
