/**
 * Test sends to a contact method (`POST /api/contact-methods/{id}/test`): a message that says it
 * is a test, through the channel's real sender (or the dev inbox), rendered by the channel's own
 * `renderTest` (src/integrations/<name>/channel.ts). Every channel that declares one takes a test;
 * a channel whose module declares its own test (ProviderModule `contactTests`: a browser's push,
 * which reads the push service's status) takes that one instead.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import type { NotifyConfig } from '../../config';
import { CHANNELS, isChannelId } from '../../domain/channels';
import { escapeMarkup } from '../../domain/markup';
import { knexOf } from '../../db/knex';
import { contactTestOf } from '../../integrations/wiring';
import { PERMANENT_DELIVERY_FAILURE, type ChannelSenders, type ContactTestResult } from '../../integrations/types';
import { conflict } from '../errors';
import { disableContactMethod, type ContactMethodJson } from './contacts';

/** What a test send answers: whether the provider took it, the push service's status (push_web), why not, and who sent it. */
export interface TestSendResult extends ContactTestResult {
  /** The provider that took it or refused it (twilio, sendgrid, pushover, …, dev_inbox); null before any was called. */
  provider: string | null;
}

const LINE = 'This is a Klaxon test: pages will reach you here like this. Nothing is wrong, and there is nothing to acknowledge.';

/** The test message every channel renders its own way. */
export const CONTACT_TEST_MESSAGE = {
  subject: 'Klaxon test page',
  text: LINE,
  html: `<p>${escapeMarkup(LINE)}</p>`,
  voiceTwiml: `<?xml version="1.0" encoding="UTF-8"?><Response><Say>${escapeMarkup(LINE)} Goodbye.</Say></Response>`,
};

/**
 * Sends a test now. A channel without `renderTest` (Slack DMs), or a contact method that is
 * disabled or not yet verified, is a 409 `test_not_supported` before anything is sent. `admit`
 * throws to refuse (the test-send throttle) once the test is known to be possible.
 */
export async function sendContactTest(
  orm: MikroORM,
  contact: ContactMethodJson,
  deps: { senders: Pick<ChannelSenders, 'get'>; notify: NotifyConfig },
  opts: { admit?: () => Promise<void> } = {},
): Promise<TestSendResult> {
  const channel = contact.type;
  const own = contactTestOf(channel);
  if (own) {
    await opts.admit?.();
    const disable = (reason: string) => disableContactMethod(knexOf(orm), contact.id, reason);
    return { ...(await own.test(contact.address, { notify: deps.notify, disable })), provider: own.provider };
  }
  if (!isChannelId(channel) || !CHANNELS[channel].renderTest)
    throw conflict(`${isChannelId(channel) ? CHANNELS[channel].label : channel} contact methods take no test send`, 'test_not_supported');
  const renderTest = CHANNELS[channel].renderTest;
  if (contact.disabled_at) throw conflict('this contact method is disabled: enable it before testing it', 'test_not_supported');
  if (!contact.verified_at) throw conflict('this contact method is not verified yet: enter its code first', 'test_not_supported');
  await opts.admit?.();
  const sender = deps.senders.get(channel);
  const notificationId = randomUUID();
  try {
    const rendered = renderTest!({ notificationId, to: contact.address, message: CONTACT_TEST_MESSAGE, data: { contact_method_id: contact.id, test: 'true' } });
    const sent = await sender.send({ ...rendered, notificationId, channel, to: contact.address });
    return { delivered: true, status_code: null, error: null, provider: sent.provider };
  } catch (err) {
    const permanent = err instanceof ApplicationFailure && err.type === PERMANENT_DELIVERY_FAILURE;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    return { delivered: false, status_code: null, error: permanent ? message : `${message} (not retried: a test is sent once)`, provider: sender.provider };
  }
}
