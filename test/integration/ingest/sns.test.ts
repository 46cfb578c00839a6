import { readFileSync } from 'node:fs';
import path from 'node:path';
import { knexOf } from '../../../src/db/knex';
import { createSource } from '../../../src/services/ingest/sources';
import { startSnsEndpoint } from '../../fakes/sns-endpoint';
import { request } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

const FIXTURES = path.resolve(__dirname, '../../fixtures/native');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, 'sns', name), 'utf8');
const headersOf = (name: string) => JSON.parse(fixture(name.replace('.json', '.headers.json'))) as Record<string, string>;

let stack: TestStack;
let ws: SeededWorkspace;
let sns: Awaited<ReturnType<typeof startSnsEndpoint>>;
let ingestUrl: string;

beforeAll(async () => {
  sns = await startSnsEndpoint(FIXTURES);
  // The fixtures' URLs name AWS; fetches go to the local stand-in, the host check stays AWS's.
  stack = await startTestStack({ env: { SNS_BASE_URL_OVERRIDE: sns.url } });
  ws = await seedWorkspace(stack.orm);
  ingestUrl = (await createSource(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name: 'sns', ingestBaseUrl: stack.urls.ingest }))
    .ingest_url;
});
afterAll(async () => {
  await stack.stop();
  await sns.close();
});

const post = (name: string, raw = fixture(name)) => request('POST', ingestUrl, { rawBody: raw, headers: headersOf(name) });

describe('AWS SNS', () => {
  it('when a SubscriptionConfirmation (SignatureVersion 1) verifies, then Klaxon GETs its SubscribeURL and answers 200', async () => {
    const res = await post('subscription_confirmation.json');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'confirmed' });
    expect(sns.requests.some((u) => u.startsWith('/?Action=ConfirmSubscription&TopicArn='))).toBe(true);
  });

  it('when any signed field is changed, then 400 and nothing is fetched or stored', async () => {
    const before = sns.requests.length;
    const forged = JSON.parse(fixture('subscription_confirmation.json'));
    forged.SubscribeURL = forged.SubscribeURL.replace('Action=ConfirmSubscription', 'Action=ConfirmSubscriptioN');
    const res = await post('subscription_confirmation.json', JSON.stringify(forged));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/signature does not verify/);
    expect(sns.requests.slice(before).filter((u) => !u.endsWith('.pem'))).toEqual([]);
  });

  it('when the signing certificate is not on an SNS host, then 400 and it is never fetched', async () => {
    const before = sns.requests.length;
    const evil = JSON.parse(fixture('cloudwatch_alarm.json'));
    evil.SigningCertURL = 'https://evil.example.com/cert.pem';
    const res = await post('cloudwatch_alarm.json', JSON.stringify(evil));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/not an allowed SNS endpoint/);
    expect(sns.requests.length).toBe(before);
  });

  it('when a CloudWatch ALARM (SignatureVersion 2) arrives, then an incident opens; the OK notification resolves its alert', async () => {
    const alarm = await post('cloudwatch_alarm.json');
    expect(alarm.status).toBe(202);
    const incident = await knexOf(stack.orm)('incidents').where({ id: alarm.body.incident_id }).first();
    expect(incident).toMatchObject({ title: 'prod-checkout-5xx-rate', severity: 'CRITICAL', status: 'TRIGGERED' });
    const ok = await post('cloudwatch_ok.json');
    expect(ok.status).toBe(202);
    expect(ok.body.incident_id).toBe(alarm.body.incident_id);
    expect((await knexOf(stack.orm)('alerts').where({ incident_id: alarm.body.incident_id })).map((a) => a.status)).toEqual(['RESOLVED']);
  });

  it('when an UnsubscribeConfirmation arrives, then 202 and nothing is created', async () => {
    const res = await post('unsubscribe_confirmation.json');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ event_id: null, incident_id: null });
  });
});
