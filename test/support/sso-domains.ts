import { dashboard, type DashboardSession } from './dashboard';
import { startTestDnsServer, type TestDnsServer } from '../fakes/dns-server';

/**
 * Proves a workspace's listed domain as its admin does (docs/sso.md, "Proving a domain"): reads
 * the TXT record from `GET /api/sso`, publishes it on the test's DNS server, and asks Klaxon to
 * verify it (`POST /api/sso/domains/{domain}/verify`).
 */
export async function proveSsoDomain(appUrl: string, session: DashboardSession, dns: TestDnsServer, domain: string): Promise<void> {
  const settings = await dashboard(appUrl, 'GET', '/sso', { session });
  const listed = (settings.body.data?.domains ?? []).find((d: { domain: string }) => d.domain === domain);
  if (!listed) throw new Error(`${domain} is not listed: ${JSON.stringify(settings.body)}`);
  dns.setTxt(domain, [[listed.txt_record]]);
  const res = await dashboard(appUrl, 'POST', `/sso/domains/${domain}/verify`, { session });
  if (res.status !== 200) throw new Error(`verifying ${domain} answered ${res.status}: ${JSON.stringify(res.body)}`);
}

/** A DNS server for a test file, started before its stack (pass `dns.server.address` as DNS_RESOLVERS) and stopped after. */
export function dnsFixture() {
  const held: { server?: TestDnsServer } = {};
  beforeAll(async () => {
    held.server = await startTestDnsServer();
  });
  afterAll(() => held.server?.stop());
  return {
    get server(): TestDnsServer {
      return held.server!;
    },
  };
}
