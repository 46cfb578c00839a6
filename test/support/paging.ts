import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { addContactMethod } from '../../src/services/paging/contacts';
import { createEscalationPolicy, setServicePolicy } from '../../src/services/paging/escalation-policies';
import { addNotificationRule } from '../../src/services/paging/notification-rules';
import { createSource } from '../../src/services/ingest/sources';
import { knexOf } from '../../src/db/knex';
import { startTwilioFake, type TwilioFake } from '../../src/integrations/twilio/testing/wire-fake';
import { startVonageFake, type VonageFake } from '../../src/integrations/vonage/testing/wire-fake';
import { startTestStack, type TestStack } from './stack';
import { addMember } from './workspace';

/** A Twilio account for a test file: the fake, and the env that points the stack at it. */
export async function twilioAccount(): Promise<{ fake: TwilioFake; env: Record<string, string> }> {
  const accountSid = `AC${randomBytes(16).toString('hex')}`;
  const authToken = randomBytes(16).toString('hex');
  const fake = await startTwilioFake({ accountSid, authToken });
  return {
    fake,
    env: { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM_NUMBER: '+15550000000', TWILIO_API_BASE_URL: fake.url },
  };
}

/** A Vonage account for a test file (the second carrier, docs/reliability.md "Carriers"): the fake, and the env that points the stack at it. */
export async function vonageAccount(): Promise<{ fake: VonageFake; env: Record<string, string> }> {
  const account = {
    apiKey: randomBytes(4).toString('hex'),
    apiSecret: `vonage-secret-${randomBytes(8).toString('hex')}`,
    applicationId: randomUUID(),
    privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    signatureSecret: `signature-${randomBytes(16).toString('hex')}`,
  };
  const fake = await startVonageFake(account);
  return {
    fake,
    env: {
      VONAGE_API_KEY: account.apiKey,
      VONAGE_API_SECRET: account.apiSecret,
      VONAGE_APPLICATION_ID: account.applicationId,
      VONAGE_PRIVATE_KEY: account.privateKey,
      VONAGE_FROM: '+15550003333',
      VONAGE_SIGNATURE_SECRET: account.signatureSecret,
      VONAGE_API_URL: fake.url,
    },
  };
}

/** A test stack whose SMS and calls go to a Twilio fake (plus any other `env`). */
export async function startPagingStack(env: Record<string, string> = {}): Promise<{ stack: TestStack; twilio: TwilioFake }> {
  const account = await twilioAccount();
  try {
    return { stack: await startTestStack({ env: { ...account.env, ...env } }), twilio: account.fake };
  } catch (err) {
    await account.fake.close();
    throw err;
  }
}

/** A random E.164 number, so tests never share one (reply codes are per number). */
export const phoneNumber = () => `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

/** A member of the workspace paged on one channel at once. */
export async function responder(
  orm: MikroORM,
  organizationId: string,
  channel: 'sms' | 'voice' | 'email',
  address = channel === 'email' ? `${randomUUID().slice(0, 8)}@pager.test` : phoneNumber(),
) {
  const user = await addMember(orm, organizationId, 'MEMBER');
  const contact = await addContactMethod(orm, { email: user.email, type: channel, address });
  await addNotificationRule(orm, { email: user.email, contactMethodId: contact.id, delaySeconds: 0 });
  return { ...user, address, contactId: contact.id };
}

/** Gives the service a policy and returns an ingestion URL of one of its sources. */
export async function pagingService(
  orm: MikroORM,
  ws: { organizationId: string; serviceId: string },
  policy: {
    steps: Array<{ delay_seconds: number; targets: Array<{ type: 'user' | 'schedule' | 'team'; id: string }> }>;
    repeat?: number;
    ackTimeoutSeconds?: number;
  },
  ingestBaseUrl: string,
): Promise<string> {
  const created = await createEscalationPolicy(orm, {
    organizationId: ws.organizationId,
    name: 'On call',
    steps: policy.steps,
    repeat: policy.repeat ?? 0,
    ackTimeoutSeconds: policy.ackTimeoutSeconds,
  });
  await setServicePolicy(orm, { serviceId: ws.serviceId, policyId: created.id });
  const source = await createSource(orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name: 'pager test', ingestBaseUrl });
  return source.ingest_url;
}

/** Posts one Form A event; returns its incident id. */
export async function trigger(ingestUrl: string, title = `Database down ${randomUUID().slice(0, 6)}`): Promise<string> {
  const res = await fetch(ingestUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title, severity: 'critical' }),
  });
  if (res.status !== 202) throw new Error(`ingestion answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { incident_id: string }).incident_id;
}

/** The incident's timeline, in order. */
export async function timelineOf(orm: MikroORM, incidentId: string) {
  return knexOf(orm)('timeline_entries')
    .select('seq', 'type', 'to_status', 'actor_type', 'actor_id', 'via', 'message')
    .where({ incident_id: incidentId })
    .orderBy('seq');
}

export async function statusOf(orm: MikroORM, incidentId: string): Promise<string> {
  return (await knexOf(orm)('incidents').select('status').where({ id: incidentId }).first()).status;
}

export async function notificationsOf(orm: MikroORM, incidentId: string) {
  return knexOf(orm)('notifications').select('*').where({ incident_id: incidentId }).orderBy('created_at');
}
