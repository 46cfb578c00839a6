import { z } from 'zod';
import { CHANNEL_IDS, CHANNELS, DRILLABLE_CHANNEL_IDS, TESTABLE_CHANNEL_IDS } from '../../../src/domain/channels';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, type AdminDeps } from '../admin-kit';

const ChannelSchema = z.object({
  id: z.string().describe('the contact method type (sms, voice, email, push_ios, push_android, push_web, slack, pushover, …)'),
  label: z.string().describe('what people call it ("Voice call")'),
  address_label: z.string().describe('what its address is called ("Phone number")'),
  address_placeholder: z.string().describe('what its address field suggests typing'),
  drillable: z.boolean().describe('a drill sends on it (POST /api/drills channels)'),
  testable: z.boolean().describe('it takes a test send (POST /api/contact-methods/{id}/test)'),
});

/**
 * The paging channels as the integrations declare them (src/integrations/<name>/channel.ts): the
 * dashboard's contact-method form, drill channels and test buttons read this, never a list of their own.
 */
export function channelRoutes(_deps: AdminDeps): RouteSpec[] {
  const channels = CHANNEL_IDS.map((id) => ({
    id,
    label: CHANNELS[id].label,
    address_label: CHANNELS[id].address.label,
    address_placeholder: CHANNELS[id].address.placeholder,
    drillable: DRILLABLE_CHANNEL_IDS.includes(id),
    testable: TESTABLE_CHANNEL_IDS.includes(id),
  }));
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/channels',
      summary: 'List the paging channels, in the order people see them, with what their addresses are called and whether drills and test sends use them',
      operationId: 'listChannels',
      success: { status: 200, description: 'every paging channel', schema: z.object({ channels: z.array(ChannelSchema) }) },
      errors: { ...ADMIN_ERRORS },
      handler: async () => ({ data: { channels }, message: `${channels.length} channel(s)` }),
    }),
  ];
}
