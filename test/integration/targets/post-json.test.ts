import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { METADATA_TARGET_ERROR, postJson, PRIVATE_TARGET_ERROR } from '../../../src/services/targets';

/** A local receiver whose answers a test sets per path, recording what it got. */
const got: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
let routes: Record<string, (res: http.ServerResponse) => void> = {};
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    got.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const route = routes[req.url ?? ''];
    if (route) route(res);
    else res.writeHead(404).end('not here');
  });
});
let port: number;
const at = (path: string) => `http://127.0.0.1:${port}${path}`;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    }),
);
beforeEach(() => {
  got.length = 0;
  routes = {};
});

const post = (url: string, over: Partial<Parameters<typeof postJson>[1]> = {}) =>
  postJson(url, { headers: { 'webhook-id': 'evt-1' }, body: '{"type":"ping"}', allowPrivate: true, ...over });

describe('postJson: one delivery attempt through the shared guard', () => {
  it('when the receiver answers 2xx, then the attempt succeeds with its status and latency, and it got the JSON and headers', async () => {
    routes['/hook'] = (res) => res.writeHead(204).end();
    expect(await post(at('/hook'))).toEqual({ status: 204, latencyMs: expect.any(Number), error: null });
    expect(got).toEqual([
      {
        method: 'POST',
        url: '/hook',
        headers: expect.objectContaining({ 'webhook-id': 'evt-1', 'content-type': 'application/json', 'content-length': '15' }),
        body: '{"type":"ping"}',
      },
    ]);
  });

  it('when the receiver answers a redirect, then it is NOT followed: a failed attempt with the 3xx status', async () => {
    routes['/moved'] = (res) => res.writeHead(307, { Location: '/hook' }).end();
    routes['/hook'] = (res) => res.writeHead(200).end();
    expect(await post(at('/moved'))).toMatchObject({ status: 307, error: 'redirect (307) not followed' });
    expect(got.map((g) => g.url)).toEqual(['/moved']);
  });

  it('when the receiver answers 500 with a huge body, or too slowly, then the attempt fails with why and does not throw', async () => {
    routes['/boom'] = (res) => res.writeHead(500).end('x'.repeat(1024 * 1024));
    routes['/slow'] = (res) => setTimeout(() => res.writeHead(200).end(), 1500).unref();
    expect(await post(at('/boom'))).toMatchObject({ status: 500, error: 'unexpected status 500' });
    expect(await post(at('/slow'), { timeoutMs: 300 })).toMatchObject({ status: null, error: 'timed out after 0.3 s' });
  });

  it('when private targets are not allowed, then a loopback address or a name resolving to one is refused before connecting', async () => {
    routes['/hook'] = (res) => res.writeHead(200).end();
    expect(await post(at('/hook'), { allowPrivate: false })).toMatchObject({ status: null, error: PRIVATE_TARGET_ERROR });
    expect(await post(`https://localhost:${port}/hook`, { allowPrivate: false })).toMatchObject({ status: null, error: PRIVATE_TARGET_ERROR });
    expect(await post(`http://[::1]:${port}/hook`, { allowPrivate: false })).toMatchObject({ status: null, error: PRIVATE_TARGET_ERROR });
    expect(got).toEqual([]);
  });

  it('when the target is a cloud metadata address, then it is refused even with private targets allowed', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://100.100.100.200/', 'http://[::ffff:a9fe:a9fe]/']) {
      expect(await post(url, { allowPrivate: true })).toMatchObject({ status: null, error: METADATA_TARGET_ERROR });
    }
  });

  it('when private targets are not allowed, then plain http is refused even to a public site (https only)', async () => {
    // Only the test server's own address stands for a public site here.
    const refuse = (address: string) => address !== '127.0.0.1';
    routes['/hook'] = (res) => res.writeHead(200).end();
    expect(await post(at('/hook'), { allowPrivate: false, refuse })).toMatchObject({ status: null, error: 'plain http:// is not allowed (https:// only)' });
    expect(await post(at('/hook'), { allowPrivate: true, refuse })).toMatchObject({ status: 200, error: null });
    // Only the allowed post arrived (an earlier test's timed-out /slow may land late on a loaded machine).
    expect(got.filter((g) => g.url === '/hook')).toHaveLength(1);
  });

  it('when a name resolving to a refused address is given, then the lookup refuses it before connecting (metadata names as written too)', async () => {
    expect(await post('https://metadata.google.internal/computeMetadata/v1/', { allowPrivate: true })).toMatchObject({
      status: null,
      error: METADATA_TARGET_ERROR,
    });
    // The test site stands for a public one, but its name's addresses are all checked: ::1 and 127.0.0.1 both refused here.
    expect(await post(`https://localhost:${port}/hook`, { allowPrivate: false, refuse: () => true })).toMatchObject({
      status: null,
      error: PRIVATE_TARGET_ERROR,
    });
  });

  it('when the URL is not http(s) or not a URL, then it fails without a request', async () => {
    expect(await post('file:///etc/passwd')).toMatchObject({ status: null, error: 'not an HTTP URL (file:)' });
    expect(await post('not a url')).toMatchObject({ status: null, error: 'invalid URL' });
  });
});
