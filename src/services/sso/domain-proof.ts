/**
 * Reads a domain's DNS TXT records for its proof (docs/sso.md, "Proving a domain"), through the
 * system's resolvers or DNS_RESOLVERS (tests point it at a DNS server of their own).
 */
import { Resolver } from 'node:dns/promises';

/** A domain's TXT records, each as the strings DNS split it into. */
export type TxtLookup = (domain: string) => Promise<string[][]>;

/** Each query gives up after 3 s and is tried twice: a verify answers within about 12 s at worst (A and AAAA of nothing, no CNAME chasing). */
const RESOLVER_OPTIONS = { timeout: 3_000, tries: 2 };

/** DNS answers that mean "no such record", not "the lookup failed". */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

/** A TXT lookup through `servers` (`host:port` each), or the system's resolvers when none are given. */
export function dnsTxtLookup(servers: readonly string[] = []): TxtLookup {
  const resolver = new Resolver(RESOLVER_OPTIONS);
  if (servers.length) resolver.setServers([...servers]);
  return async (domain) => {
    try {
      return await resolver.resolveTxt(domain);
    } catch (err) {
      if (NO_RECORD.has((err as NodeJS.ErrnoException).code ?? '')) return [];
      throw new Error(`the DNS lookup of ${domain} failed (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { cause: err });
    }
  };
}
