/**
 * A browser's test push (`POST /api/contact-methods/{id}/test` on a push_web contact method): sent
 * now, answering the push service's status. A 404 or 410 means the browser dropped the
 * subscription: the contact method is disabled, as a page would disable it.
 */
import type { ContactTestDeps, ContactTestResult } from '../types';
import { webPushSettings } from './config';
import { deliverWebPush, parseSubscription } from './sender';

export async function sendTestPush(address: string, deps: ContactTestDeps): Promise<ContactTestResult> {
  const config = webPushSettings(deps.notify);
  const outcome = await deliverWebPush(config, parseSubscription(address), {
    incident_id: null,
    title: 'Klaxon test push',
    body: 'Pages will reach this device like this.',
    url: `${config.appUrl}/profile`,
    action_token: null,
  });
  if (outcome.kind === 'delivered') return { delivered: true, status_code: outcome.status, error: null };
  if (outcome.kind === 'gone') {
    await deps.disable(`web-push: ${outcome.error}`);
    return { delivered: false, status_code: outcome.status, error: `${outcome.error}; this contact method is now disabled: enable push on the device again` };
  }
  return { delivered: false, status_code: outcome.status, error: outcome.error };
}
