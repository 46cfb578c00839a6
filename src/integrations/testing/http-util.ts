import type { Server } from 'node:http';
import { createServer, type AddressInfo, type Server as NetServer } from 'node:net';
import type { Readable } from 'node:stream';

/** The whole request body as text. */
export function readBody(req: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer | string) => chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c)));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Listens on an ephemeral port of 127.0.0.1 and returns it. */
export async function listen(server: NetServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Closes a server, dropping kept-alive connections so tests end promptly. */
export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Polls `probe` until it returns a value, or fails after `timeoutMs` naming `what`. */
// 30 s: a CI machine running two test files at once can take that long to page (tests that
// show something does NOT happen sleep instead).
export async function waitUntil<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The `user:password` of an HTTP Basic header, or null. */
export function basicAuth(header: string | undefined): { username: string; password: string } | null {
  const m = /^Basic (.+)$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i < 0 ? null : { username: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

/** A local port nothing listens on (fetch refuses "unsafe" ports such as 1, so not those). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
