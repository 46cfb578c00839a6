import http from 'node:http';
import { close, listen } from '../../../src/integrations/testing/http-util';
import { getJson } from '../../../src/services/targets';

// The guarded GET-JSON of the importers: capped answers refused rather than cut, no redirect
// followed, an error page's status kept, plain http only where private targets are allowed.

let server: http.Server;
let base = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/big') return res.end(JSON.stringify({ pad: 'x'.repeat(2000) }));
    if (req.url === '/redirect') return res.writeHead(302, { Location: 'http://169.254.169.254/' }).end();
    if (req.url === '/html') return res.writeHead(502, { 'Content-Type': 'text/html' }).end('<h1>Bad gateway</h1>');
    if (req.url === '/text') return res.end('not json');
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-Seen-Auth': req.headers.authorization ?? '' }).end('{"ok":true}');
  });
  base = `http://127.0.0.1:${await listen(server)}`;
});
afterAll(() => close(server));

describe('getJson', () => {
  it('when the answer is JSON, then it is parsed with its status and headers, the given headers sent', async () => {
    const res = await getJson(`${base}/ok`, { headers: { Authorization: 'Token token=x' }, allowPrivate: true });
    expect(res).toMatchObject({ ok: true, status: 200, body: { ok: true }, headers: { 'x-seen-auth': 'Token token=x' } });
  });

  it('when the answer is larger than the cap, then it is refused, not cut', async () => {
    expect(await getJson(`${base}/big`, { headers: {}, allowPrivate: true, maxBytes: 1000 })).toMatchObject({
      ok: false,
      error: 'answer larger than 1000 bytes',
    });
  });

  it('when the answer redirects, is an HTML error page or is not JSON, then each is said', async () => {
    expect(await getJson(`${base}/redirect`, { headers: {}, allowPrivate: true })).toMatchObject({
      ok: false,
      status: 302,
      error: 'redirect (302) not followed',
    });
    expect(await getJson(`${base}/html`, { headers: {}, allowPrivate: true })).toMatchObject({ ok: true, status: 502, body: undefined });
    expect(await getJson(`${base}/text`, { headers: {}, allowPrivate: true })).toMatchObject({
      ok: false,
      status: 200,
      error: 'answer is not JSON (status 200)',
    });
  });

  it('when private targets are not allowed, then loopback and plain http are refused before connecting', async () => {
    expect(await getJson(`${base}/ok`, { headers: {}, allowPrivate: false })).toMatchObject({
      ok: false,
      status: null,
      error: 'target resolves to a private address',
    });
    expect(await getJson('http://example.invalid/', { headers: {}, allowPrivate: false })).toMatchObject({
      ok: false,
      error: 'plain http:// is not allowed (https:// only)',
    });
    expect(await getJson('http://169.254.169.254/latest', { headers: {}, allowPrivate: true })).toMatchObject({
      ok: false,
      error: 'target resolves to a cloud metadata address',
    });
  });
});
