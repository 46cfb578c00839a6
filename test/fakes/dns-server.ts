import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as dnsPacket from 'dns-packet';

/**
 * A DNS server over UDP for the domain-proof tests (docs/sso.md, "Proving a domain"): Klaxon's
 * resolver (`dns.promises.Resolver`, c-ares, pointed here by DNS_RESOLVERS) asks it for TXT records.
 * It answers TXT questions from `records`, NXDOMAIN for names it does not know, SERVFAIL for names
 * told to fail, and no answer at all for other record types.
 * The wire format (RFC 1035) is `dns-packet`'s; c-ares, a real client, reads every answer.
 */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`: the value for DNS_RESOLVERS. */
  address: string;
  /** Sets a name's TXT records (each a list of strings, as DNS splits long ones). */
  setTxt(name: string, records: string[][]): void;
  /** Makes lookups of a name fail (SERVFAIL). */
  fail(name: string): void;
  /** The TXT questions asked so far, by name (lower case). */
  asked: string[];
  stop(): Promise<void>;
}

/** RFC 1035 §4.1.1 response codes. */
const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

export async function startTestDnsServer(): Promise<TestDnsServer> {
  const socket = dgram.createSocket('udp4');
  const records = new Map<string, string[][]>();
  const failing = new Set<string>();
  const asked: string[] = [];
  socket.on('message', (msg, peer) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return; // not a DNS message: no answer, as a server would drop it
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    if (question.type === 'TXT') asked.push(name);
    const rcode = failing.has(name) ? RCODE.SERVFAIL : !records.has(name) ? RCODE.NXDOMAIN : RCODE.NOERROR;
    const answers: dnsPacket.Answer[] =
      rcode === RCODE.NOERROR && question.type === 'TXT'
        ? records.get(name)!.map((strings) => ({ type: 'TXT', name: question.name, class: 'IN', ttl: 0, data: strings }))
        : [];
    // Authoritative (AA), recursion available (RA), recursion desired echoed, and the rcode in the
    // flags' low four bits (dns-packet encodes `flags` as given); TTL 0: nothing cached between tests.
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | rcode;
    const reply = dnsPacket.encode({ id: query.id, type: 'response', flags, questions: [question], answers });
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    setTxt: (name, txt) => {
      failing.delete(name.toLowerCase());
      records.set(name.toLowerCase(), txt);
    },
    fail: (name) => failing.add(name.toLowerCase()),
    asked,
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
