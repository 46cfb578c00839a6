import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * Stands in for sns.<region>.amazonaws.com over HTTP: serves the fixtures' throw-away signing
 * certificate for any `.pem` path (1 MiB of it, chunked and with no length, for a path ending
 * `-oversized.pem`) and records every GET.
 */
export async function startSnsEndpoint(fixturesDir: string) {
  const pem = readFileSync(path.join(fixturesDir, 'sns', 'test-signing-cert.pem'), 'utf8');
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.method !== 'GET') return void res.writeHead(405).end();
    const pathname = (req.url ?? '').split('?')[0];
    if (pathname.endsWith('-oversized.pem')) {
      res.writeHead(200, { 'Content-Type': 'application/x-pem-file' });
      for (let i = 0; i < 64; i++) res.write(pem.padEnd(16 * 1024, '\n'));
      return void res.end();
    }
    if (pathname.endsWith('.pem')) return void res.writeHead(200, { 'Content-Type': 'application/x-pem-file' }).end(pem);
    res.writeHead(200, { 'Content-Type': 'text/xml' }).end('<ConfirmSubscriptionResponse/>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
