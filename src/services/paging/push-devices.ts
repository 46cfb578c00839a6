/**
 * Push devices: native app devices (push_ios, push_android) registered by the app, stored as
 * contact methods through their one writer (./contacts.ts). A browser's (push_web) test push is
 * its module's (./test-sends.ts).
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { normaliseAddress, type ChannelId } from '../../domain/channels';
import { invalid, notFound } from '../errors';
import type { ChangeOptions } from './changes';
import { addMemberContactMethod, memberOf, removeContactMethod, type ContactMethodJson } from './contacts';
import { CONTACT_COLUMNS, contactJson } from './contact-rows';

/** The native app platforms and the channel each registers. */
export const DEVICE_PLATFORMS = { ios: 'push_ios', android: 'push_android' } as const satisfies Record<string, ChannelId>;
export type DevicePlatform = keyof typeof DEVICE_PLATFORMS;

/**
 * Registers a member's app device: its push contact method, created through the contact-method
 * writer, or the one already there for this token (`created` false).
 */
export async function registerDevice(
  orm: MikroORM,
  input: { organizationId: string; userId: string; platform: DevicePlatform; token: string; name: string },
  opts: ChangeOptions,
): Promise<{ contact: ContactMethodJson; created: boolean }> {
  const type = DEVICE_PLATFORMS[input.platform];
  const token = normaliseAddress(type, input.token);
  if (!token.ok) throw invalid(`token: ${token.message}`);
  await memberOf(orm, input.organizationId, input.userId);
  const existing = async () =>
    knexOf(orm)('contact_methods')
      .select(CONTACT_COLUMNS)
      .where({ organization_id: input.organizationId, user_id: input.userId, type, address: token.address })
      .first();
  const found = await existing();
  if (found) return { contact: contactJson(found), created: false };
  try {
    const contact = await addMemberContactMethod(
      orm,
      { organizationId: input.organizationId, userId: input.userId, type, address: token.address, label: input.name },
      // Devices are never phone numbers: no code is ever sent.
      { ...opts, sendCode: async () => undefined },
    );
    return { contact, created: true };
  } catch (err) {
    // Registered at the same moment by another request: theirs is the device.
    const raced = (err as { code?: string }).code === 'duplicate_contact_method' ? await existing() : undefined;
    if (raced) return { contact: contactJson(raced), created: false };
    throw err;
  }
}

/** Removes an app device (a push_ios or push_android contact method) and its notification rules. */
export async function removeDevice(orm: MikroORM, contact: ContactMethodJson, opts: ChangeOptions) {
  if (contact.type !== 'push_ios' && contact.type !== 'push_android')
    throw notFound(`device ${contact.id} not found (contact method ${contact.id} is ${contact.type})`);
  return removeContactMethod(orm, { id: contact.id, organizationId: contact.organization_id }, opts);
}
