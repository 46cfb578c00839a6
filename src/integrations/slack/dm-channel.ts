/**
 * The Slack DM paging channel, declared (pure; docs/chat.md, "Slack DMs"): a DM from the
 * workspace's Slack app carrying the channel message's Block Kit and buttons. Linked with
 * POST /api/me/slack/link; drills and test sends do not use it.
 */
import { slackUserId } from '../../domain/addresses';
import { pageSubject } from '../../domain/paging/messages';
import type { ChannelDeclaration } from '../channel';

export const slackChannels = {
  slack: {
    label: 'Slack',
    bannerLabel: 'Slack DM',
    address: { label: 'Slack member id', placeholder: 'Linked from Slack (U…)' },
    normalise: slackUserId,
    formB: null,
    quota: null,
    providers: ['slack'],
    credentials: 'SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_SIGNING_SECRET',
    replyCodes: false,
    render: (p) => ({
      subject: pageSubject(p.subject),
      text: pageSubject(p.subject),
      slack: {
        organizationId: p.incident.organizationId,
        view: { ...p.incident, pagingNow: [], url: p.subject.url },
      },
    }),
  },
} as const satisfies Record<string, ChannelDeclaration<'slack'>>;
