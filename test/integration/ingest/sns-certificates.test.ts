import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SNS_CERTIFICATE_LIMITS } from '../../../src/domain/ingest/limits';
import { createSnsVerifier } from '../../../src/services/ingest/sns';
import { startSnsEndpoint } from '../../fakes/sns-endpoint';

const FIXTURES = path.resolve(__dirname, '../../fixtures/native');
const AWS_HOSTS = /^sns\.[a-z0-9-]+\.amazonaws\.com$/;
const alarm = JSON.parse(readFileSync(path.join(FIXTURES, 'sns', 'cloudwatch_alarm.json'), 'utf8')) as Record<string, string>;
// SigningCertURL is not a signed field: every path serves the same test certificate, so each verifies.
const signedWithCertAt = (name: string) => ({ ...alarm, SigningCertURL: `https://sns.eu-west-1.amazonaws.com/${name}.pem` });

let sns: Awaited<ReturnType<typeof startSnsEndpoint>>;
beforeAll(async () => {
  sns = await startSnsEndpoint(FIXTURES);
});
afterAll(() => sns.close());

const fetchesOf = (name: string) => sns.requests.filter((u) => u === `/${name}.pem`).length;

describe('SNS signing certificate cache', () => {
  it('when more distinct certificate URLs arrive than the cache holds, then the least recently used is dropped and fetched again', async () => {
    const verifier = createSnsVerifier({ hostPattern: AWS_HOSTS, baseUrlOverride: sns.url });
    const names = Array.from({ length: SNS_CERTIFICATE_LIMITS.entries + 1 }, (_, i) => `bound-${i}`);
    for (const name of names) await verifier.verified(signedWithCertAt(name));
    await verifier.verified(signedWithCertAt(names[names.length - 1]));
    expect(fetchesOf(names[names.length - 1])).toBe(1); // still held
    await verifier.verified(signedWithCertAt(names[0]));
    expect(fetchesOf(names[0])).toBe(2); // the oldest was dropped when the cache was full
  });

  it('when a cached certificate is older than its time to live, then it is fetched again', async () => {
    const verifier = createSnsVerifier({ hostPattern: AWS_HOSTS, baseUrlOverride: sns.url, certificates: { ttlMs: 50 } });
    await verifier.verified(signedWithCertAt('ttl'));
    await verifier.verified(signedWithCertAt('ttl'));
    expect(fetchesOf('ttl')).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    await verifier.verified(signedWithCertAt('ttl'));
    expect(fetchesOf('ttl')).toBe(2);
  });

  it('when the certificate URL serves more than the size limit, then a clear 400 and nothing is kept', async () => {
    const verifier = createSnsVerifier({ hostPattern: AWS_HOSTS, baseUrlOverride: sns.url });
    const refused = { kind: 'invalid', message: `SNS signing certificate is larger than ${SNS_CERTIFICATE_LIMITS.bytes / 1024} KiB` };
    await expect(verifier.verified(signedWithCertAt('huge-oversized'))).rejects.toMatchObject(refused);
    await expect(verifier.verified(signedWithCertAt('huge-oversized'))).rejects.toMatchObject(refused);
    expect(fetchesOf('huge-oversized')).toBe(2);
  });
});
