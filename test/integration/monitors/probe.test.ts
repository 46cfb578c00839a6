import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_REDIRECTS, PRIVATE_TARGET_ERROR, probe } from '../../../src/services/monitors/probe';

/** A local site whose answers a test sets per path, counting the requests it got. */
const hits: string[] = [];
let routes: Record<string, (res: http.ServerResponse) => void> = {};
const server = http.createServer((req, res) => {
  hits.push(`${req.method} ${req.url}`);
  const route = routes[req.url ?? ''];
  if (route) route(res);
  else res.writeHead(404).end('not here');
});
let port: number;
const at = (path: string) => `http://127.0.0.1:${port}${path}`;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  hits.length = 0;
  routes = {};
});

const check = (url: string, over: Partial<Parameters<typeof probe>[0]> = {}) =>
  probe({ url, method: 'GET', timeoutMs: 2000, expectedStatusCodes: null, keyword: null, allowPrivate: true, ...over });

describe('one HTTP check', () => {
  it('when the site answers 200 with the keyword, then the check passes with its status and latency', async () => {
    routes['/health'] = (res) => res.writeHead(200).end('status: All good');
    expect(await check(at('/health'), { keyword: 'All good' })).toEqual({ ok: true, statusCode: 200, latencyMs: expect.any(Number), error: null });
  });

  it('when the site answers 500, or 200 without the keyword, or HEAD is asked, then the check says why', async () => {
    routes['/down'] = (res) => res.writeHead(500).end('boom');
    routes['/page'] = (res) => res.writeHead(200).end('maintenance');
    expect(await check(at('/down'))).toMatchObject({ ok: false, statusCode: 500, error: 'unexpected status 500 (expected 2xx)' });
    expect(await check(at('/page'), { keyword: 'Welcome' })).toMatchObject({
      ok: false,
      statusCode: 200,
      error: 'keyword "Welcome" not found in the response',
    });
    expect(await check(at('/page'), { method: 'HEAD' })).toMatchObject({ ok: true, statusCode: 200 });
    expect(hits).toContain('HEAD /page');
  });

  it('when nothing listens or the site is too slow, then the check fails with a reason and does not throw', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await check(`http://127.0.0.1:${closedPort}/`)).toMatchObject({ ok: false, statusCode: null, error: 'connection refused' });
    routes['/slow'] = (res) => setTimeout(() => res.writeHead(200).end('late'), 1500);
    expect(await check(at('/slow'), { timeoutMs: 300 })).toMatchObject({ ok: false, statusCode: null, error: 'timed out after 0.3 s' });
  });

  it('when redirects lead to a healthy page, then they are followed (at most 5); a sixth fails', async () => {
    for (let i = 0; i < 6; i++) routes[`/r${i}`] = (res) => res.writeHead(302, { Location: `/r${i + 1}` }).end();
    routes['/r6'] = (res) => res.writeHead(200).end('landed');
    expect(await check(at('/r1'))).toMatchObject({ ok: true, statusCode: 200 });
    expect(await check(at('/r0'))).toMatchObject({ ok: false, statusCode: 302, error: `more than ${MAX_REDIRECTS} redirects` });
  });
});

describe('private targets (SSRF)', () => {
  it('when a name resolves to a loopback address and private targets are not allowed, then the check fails without connecting', async () => {
    routes['/'] = (res) => res.writeHead(200).end('ok');
    expect(await check(`http://localhost:${port}/`, { allowPrivate: false })).toMatchObject({ ok: false, statusCode: null, error: PRIVATE_TARGET_ERROR });
    expect(await check(`http://127.0.0.1:${port}/`, { allowPrivate: false })).toMatchObject({ ok: false, error: PRIVATE_TARGET_ERROR });
    expect(hits).toEqual([]);
  });

  it('when an allowed site redirects to a private address, then the hop is refused before connecting', async () => {
    // Only the test site's own address is allowed here: it stands for a public site.
    const refuse = (address: string) => address !== '127.0.0.1';
    routes['/to-metadata'] = (res) => res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
    routes['/to-ipv6-loopback'] = (res) => res.writeHead(301, { Location: `http://[::1]:${port}/` }).end();
    routes['/to-file'] = (res) => res.writeHead(302, { Location: 'file:///etc/passwd' }).end();
    expect(await check(at('/to-metadata'), { allowPrivate: false, refuse })).toMatchObject({ ok: false, error: PRIVATE_TARGET_ERROR });
    expect(await check(at('/to-ipv6-loopback'), { allowPrivate: false, refuse })).toMatchObject({ ok: false, error: PRIVATE_TARGET_ERROR });
    expect(await check(at('/to-file'), { allowPrivate: false, refuse })).toMatchObject({ ok: false, error: 'redirect to a non-HTTP URL (file:)' });
    expect(hits).toEqual(['GET /to-metadata', 'GET /to-ipv6-loopback', 'GET /to-file']);
  });
});
