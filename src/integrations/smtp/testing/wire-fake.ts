import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { waitUntil } from '../../testing/http-util';

/** One message an SMTP client handed over. */
export interface SmtpMessage {
  /** The authenticated user, or null. */
  user: string | null;
  from: string;
  to: string[];
  /** The raw message (headers and MIME body), dot-unstuffed. */
  data: string;
  /** Arrival time of the final dot, ms since the epoch. */
  at: number;
}

/**
 * A minimal SMTP relay at the wire (RFC 5321 subset: EHLO, AUTH PLAIN/LOGIN, MAIL, RCPT, DATA,
 * RSET, NOOP, QUIT) for nodemailer; `smtp-server` is not a dependency, and this is all we speak.
 */
export async function startSmtpFake(opts: { user: string; password: string }) {
  const messages: SmtpMessage[] = [];
  const rejections = new Map<string, string>();
  const authFailures: string[] = [];

  const server = net.createServer((socket) => {
    let buffer = '';
    let user: string | null = null;
    let envelope: { from: string; to: string[] } | null = null;
    let dataLines: string[] | null = null;
    let pending: ((line: string) => void) | null = null;
    const reply = (text: string) => socket.write(`${text}\r\n`);
    const login = (u: string, p: string) => {
      if (u === opts.user && p === opts.password) return ((user = u), reply('235 2.7.0 Authentication successful'));
      authFailures.push(u);
      reply('535 5.7.8 Authentication credentials invalid');
    };
    const plain = (b64: string) => {
      const [, u = '', p = ''] = Buffer.from(b64, 'base64').toString('utf8').split('\u0000');
      login(u, p);
    };
    const command = (line: string) => {
      const [verb = '', ...rest] = line.split(' ');
      const arg = rest.join(' ');
      const address = (/<([^<>]*)>/.exec(arg) ?? [])[1] ?? '';
      switch (verb.toUpperCase()) {
        case 'EHLO':
          return reply('250-fake-smtp\r\n250-AUTH PLAIN LOGIN\r\n250-8BITMIME\r\n250 SMTPUTF8');
        case 'HELO':
          return reply('250 fake-smtp');
        case 'AUTH': {
          const [method, initial] = rest;
          if (method?.toUpperCase() === 'PLAIN') return initial ? plain(initial) : ((pending = plain), reply('334 '));
          if (method?.toUpperCase() !== 'LOGIN') return reply('504 5.5.4 Unrecognized authentication type');
          pending = (u) => ((pending = (p) => login(Buffer.from(u, 'base64').toString(), Buffer.from(p, 'base64').toString())), reply('334 UGFzc3dvcmQ6'));
          return reply('334 VXNlcm5hbWU6');
        }
        case 'MAIL':
          if (!user) return reply('530 5.7.0 Authentication required');
          envelope = { from: address, to: [] };
          return reply('250 2.1.0 Ok');
        case 'RCPT': {
          if (!envelope) return reply('503 5.5.1 Error: need MAIL command');
          const rejection = rejections.get(address.toLowerCase());
          if (rejection) return reply(rejection);
          envelope.to.push(address);
          return reply('250 2.1.5 Ok');
        }
        case 'DATA':
          if (!envelope?.to.length) return reply('554 5.5.1 Error: no valid recipients');
          dataLines = [];
          return reply('354 End data with <CR><LF>.<CR><LF>');
        case 'RSET':
          envelope = null;
          return reply('250 2.0.0 Ok');
        case 'NOOP':
          return reply('250 2.0.0 Ok');
        case 'QUIT':
          reply('221 2.0.0 Bye');
          return socket.end();
        default:
          return reply('502 5.5.2 Error: command not recognized');
      }
    };
    const onLine = (line: string) => {
      if (dataLines) {
        if (line !== '.') return void dataLines.push(line.startsWith('..') ? line.slice(1) : line);
        messages.push({ user, from: envelope!.from, to: envelope!.to, data: dataLines.join('\r\n'), at: Date.now() });
        dataLines = null;
        envelope = null;
        return void reply(`250 2.0.0 Ok: queued as ${randomBytes(6).toString('hex').toUpperCase()}`);
      }
      if (pending) {
        const next = pending;
        pending = null;
        return void next(line);
      }
      command(line);
    };
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let i = buffer.indexOf('\r\n'); i >= 0; i = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        onLine(line);
      }
    });
    socket.on('error', () => undefined);
    reply('220 fake-smtp ESMTP');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    /** An SMTP_URL with the given credentials (defaults to the right ones). */
    url: (user = opts.user, password = opts.password) => `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    messages,
    /** Users whose login was refused. */
    authFailures,
    waitFor: (match: (m: SmtpMessage) => boolean = () => true, timeoutMs?: number) => waitUntil('an SMTP message', () => messages.find(match), timeoutMs),
    /** Makes RCPT TO `address` fail with `reply` (default a permanent 550; use a 4xx for a temporary one). */
    rejectRecipient: (address: string, reply = '550 5.1.1 <' + address + '>: Recipient address rejected: User unknown') =>
      rejections.set(address.toLowerCase(), reply),
    clearRejection: (address: string) => rejections.delete(address.toLowerCase()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpFake = Awaited<ReturnType<typeof startSmtpFake>>;
