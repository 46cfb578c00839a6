import http from 'node:http';
import type { Socket } from 'node:net';
import { OutboundError, outboundClient, outboundFetch, outboundRequest } from '../../../src/services/outbound';
import { METADATA_TARGET_ERROR, PRIVATE_TARGET_ERROR } from '../../../src/services/targets';
import { close, listen, readBody } from '../../../src/integrations/testing/http-util';
import { waitFor } from '../../support/wait';

/*
 * The bounded outbound client (docs/security.md, "Outbound requests") against a local server:
 * the deadline covers the head and the body, the cap closes the socket, a caller's signal ends the
 * request, nothing is followed, and the guard tells a workspace's URL from an operator's host.
 */
const seen: Array<{ url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
/** Sockets the server saw close, by path: the client closed them (nothing here closes its own). */
const closed = new Map<string, number>();
const server = http.createServer(async (req, res) => {
  const body = await readBody(req);
  seen.push({ url: req.url ?? '', headers: req.headers, body });
  const path = req.url ?? '';
  const opened = Date.now();
  (req.socket as Socket).once('close', () => closed.set(path, Date.now() - opened));
  switch (path) {
    case '/late-head':
      return void setTimeout(() => res.writeHead(200).end('late'), 2_000).unref();
    case '/declared-huge':
      // Declares 100 MiB and sends it slowly: refused on the declaration, before any of it is read.
      res.writeHead(200, { 'Content-Length': String(100 * 1024 * 1024) });
      return void res.write('x'.repeat(1024));
    case '/moved':
      return void res.writeHead(302, { Location: '/elsewhere' }).end();
    case '/elsewhere':
      return void res.writeHead(200).end('followed');
    case '/big':
      return void res.writeHead(200).end('y'.repeat(10_000));
    default:
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
  }
});
let base = '';
beforeAll(async () => {
  base = `http://127.0.0.1:${await listen(server)}`;
});
afterAll(() => close(server));

const fixed = { target: 'fixed' as const };
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('answered');
    },
    (err: unknown) => err as OutboundError,
  );

describe('the bounded outbound client', () => {
  it('when the answer’s head is later than the deadline, then the request fails at the deadline and the connection is closed', async () => {
    const started = Date.now();
    const err = await failure(outboundRequest(`${base}/late-head`, { ...fixed, deadlineMs: 500 }));
    expect(err).toMatchObject({ kind: 'timeout', message: 'timed out after 0.5 s', status: null });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await waitFor(async () => closed.get('/late-head'), 5_000, 'the socket closed')).toBeLessThan(1_500);
  });

  it('when the answer declares more than the cap, then it is refused with its status before its body is read, and the connection is closed', async () => {
    const err = await failure(outboundRequest(`${base}/declared-huge`, { ...fixed, maxBytes: 4096 }));
    expect(err).toMatchObject({ kind: 'too_large', message: 'answer larger than 4096 bytes', status: 200 });
    expect(await waitFor(async () => closed.get('/declared-huge'), 5_000, 'the socket closed')).toBeLessThan(1_000);
  });

  it('when the answer is longer than the cap, then it is refused, or cut at the cap when the caller asks for that', async () => {
    await expect(failure(outboundRequest(`${base}/big`, { ...fixed, maxBytes: 1000 }))).resolves.toMatchObject({ kind: 'too_large', status: 200 });
    const cut = await outboundRequest(`${base}/big`, { ...fixed, maxBytes: 1000, overflow: 'truncate' });
    expect({ status: cut.status, truncated: cut.truncated, length: cut.body.length }).toEqual({ status: 200, truncated: true, length: 1000 });
  });

  it('when the caller’s signal aborts, then the request ends there with why', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const err = await failure(outboundRequest(`${base}/late-head`, { ...fixed, signal: controller.signal }));
    expect(err).toMatchObject({ kind: 'aborted', status: null });
    await expect(failure(outboundRequest(`${base}/`, { ...fixed, signal: AbortSignal.abort() }))).resolves.toMatchObject({ kind: 'aborted' });
  });

  it('when the answer redirects, then the 3xx is answered as is and nothing follows it', async () => {
    seen.length = 0;
    const res = await outboundRequest(`${base}/moved`, fixed);
    expect({ status: res.status, location: res.location }).toEqual({ status: 302, location: '/elsewhere' });
    expect(seen.map((s) => s.url)).toEqual(['/moved']);
  });

  it('when the URL is a workspace’s, then loopback needs ALLOW_PRIVATE_TARGETS and plain http with it; a fixed host skips that rule; metadata is refused for both', async () => {
    const supplied = outboundClient({ target: 'supplied', allowPrivate: false });
    await expect(failure(supplied.request(`${base}/`))).resolves.toMatchObject({ kind: 'refused', message: PRIVATE_TARGET_ERROR });
    await expect(failure(supplied.request('http://example.invalid/'))).resolves.toMatchObject({ message: 'plain http:// is not allowed (https:// only)' });
    expect((await outboundRequest(`${base}/`, { target: 'supplied', allowPrivate: true })).status).toBe(200);
    expect((await outboundRequest(`${base}/`, fixed)).status).toBe(200);
    for (const target of ['supplied', 'fixed'] as const) {
      await expect(failure(outboundRequest('http://169.254.169.254/latest/meta-data/', { target, allowPrivate: true }))).resolves.toMatchObject({
        kind: 'refused',
        message: METADATA_TARGET_ERROR,
      });
    }
  });
});

describe('the client as fetch', () => {
  it('when a library posts a form, then it is sent with fetch’s content type, Accept-Encoding left out, and the answer is a Response', async () => {
    seen.length = 0;
    const fetch = outboundFetch(fixed);
    const res = await fetch(`${base}/token`, {
      method: 'POST',
      headers: new Headers({ 'Accept-Encoding': 'gzip', Authorization: 'Basic eA==' }),
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.url).toBe(`${base}/token`);
    expect(seen[0].body).toBe('grant_type=client_credentials');
    expect(seen[0].headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', authorization: 'Basic eA==' });
    expect(seen[0].headers['accept-encoding']).toBeUndefined();
  });

  it('when the answer redirects, then `redirect: error` throws and anything else gets the 3xx; nothing follows it', async () => {
    seen.length = 0;
    const fetch = outboundFetch(fixed);
    await expect(fetch(`${base}/moved`, { redirect: 'error' })).rejects.toThrow('redirect (302) not followed');
    expect((await fetch(`${base}/moved`, { redirect: 'manual' })).status).toBe(302);
    expect((await fetch(`${base}/moved`)).status).toBe(302);
    expect(seen.map((s) => s.url)).toEqual(['/moved', '/moved', '/moved']);
  });
});
