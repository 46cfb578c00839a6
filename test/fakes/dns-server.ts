import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

/**
 * A DNS server over UDP for the domain-proof tests (docs/sso.md, "Proving a domain"): Klaxon's
 * resolver (`dns.promises.Resolver`, c-ares, pointed here by DNS_RESOLVERS) asks it for TXT records.
 * It answers TXT questions from `records`, NXDOMAIN for names it does not know, SERVFAIL for names
 * told to fail, and no answer at all for other record types.
 *
 * The wire format (RFC 1035 §4) is written here by hand, for the one answer shape needed: neither
 * `dns-packet` nor `dns2` is among the project's packages yet. c-ares, a real client, reads every
 * answer, so a malformed one would fail the tests loudly.
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

const TYPE_TXT = 16;
const CLASS_IN = 1;
const RCODE = { ok: 0, serverFailure: 2, nameError: 3 } as const;

/** The question of a query: its name, type, and the bytes it spans (echoed in the answer). */
function readQuestion(msg: Buffer): { name: string; type: number; end: number } | undefined {
  if (msg.length < 12 || msg.readUInt16BE(4) !== 1) return undefined;
  const labels: string[] = [];
  let at = 12;
  while (at < msg.length && msg[at] !== 0) {
    const len = msg[at];
    // A query's name is never compressed; anything else is not a question we answer.
    if (len > 63 || at + 1 + len > msg.length) return undefined;
    labels.push(msg.subarray(at + 1, at + 1 + len).toString('latin1'));
    at += 1 + len;
  }
  if (at + 5 > msg.length) return undefined;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(at + 1), end: at + 5 };
}

/** One TXT resource record answering the question at offset 12 (a compression pointer to it). */
function txtRecord(strings: string[]): Buffer {
  const rdata = Buffer.concat(
    strings.map((s) => {
      const bytes = Buffer.from(s, 'utf8');
      if (bytes.length > 255) throw new Error('a TXT string is at most 255 bytes');
      return Buffer.concat([Buffer.from([bytes.length]), bytes]);
    }),
  );
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  head.writeUInt16BE(TYPE_TXT, 2);
  head.writeUInt16BE(CLASS_IN, 4);
  head.writeUInt32BE(0, 6); // TTL 0: nothing cached between tests
  head.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([head, rdata]);
}

/** The answer to `query`: its id and question, our flags and rcode, and the records. */
function answer(query: Buffer, questionEnd: number, rcode: number, records: Buffer[]): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  const rd = query[2] & 0x01;
  header[2] = 0x80 | 0x04 | rd; // QR, AA, RD as asked
  header[3] = 0x80 | rcode; // RA, rcode
  header.writeUInt16BE(1, 4); // one question
  header.writeUInt16BE(records.length, 6);
  return Buffer.concat([header, query.subarray(12, questionEnd), ...records]);
}

export async function startTestDnsServer(): Promise<TestDnsServer> {
  const socket = dgram.createSocket('udp4');
  const records = new Map<string, string[][]>();
  const failing = new Set<string>();
  const asked: string[] = [];
  socket.on('message', (msg, peer) => {
    const question = readQuestion(msg);
    if (!question) return;
    if (question.type === TYPE_TXT) asked.push(question.name);
    let reply: Buffer;
    if (failing.has(question.name)) reply = answer(msg, question.end, RCODE.serverFailure, []);
    else if (!records.has(question.name)) reply = answer(msg, question.end, RCODE.nameError, []);
    else if (question.type !== TYPE_TXT) reply = answer(msg, question.end, RCODE.ok, []);
    else reply = answer(msg, question.end, RCODE.ok, records.get(question.name)!.map(txtRecord));
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
