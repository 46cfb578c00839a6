import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from './../support/http';
import { startTestStack, type TestStack } from '../support/stack';

// The app listener serves the built dashboard at `/` (docs/architecture.md, "Dashboard"), from a dist folder laid
// out as Vite writes it: index.html and hashed assets.
const dist = mkdtempSync(path.join(tmpdir(), 'klaxon-ui-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><title>Klaxon</title><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script>',
);
writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("klaxon")');
// The installable app's files at the root (docs/pwa.md): the service worker, the manifest, the icons.
writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("push", () => {});');
writeFileSync(path.join(dist, 'manifest.webmanifest'), JSON.stringify({ name: 'Klaxon', start_url: '/' }));
mkdirSync(path.join(dist, 'icons'));
writeFileSync(path.join(dist, 'icons', 'icon-192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false, uiDistDir: dist });
});
afterAll(() => stack.stop());

describe('the dashboard at /', () => {
  it('when a page path is opened, then index.html answers, not cached, for / and for any client-side route', async () => {
    for (const page of ['/', '/incidents/123', '/login']) {
      const res = await fetch(`${stack.urls.app}${page}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('when a hashed asset is fetched, then it is served with a year of immutable caching; a missing one is 404, not the page', async () => {
    const res = await fetch(`${stack.urls.app}/assets/index-abc123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await fetch(`${stack.urls.app}/assets/index-old999.js`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain('<div id="root">');
  });

  it('when the service worker, the manifest and an icon are fetched, then each is itself with its type and caching (the worker never cached); a missing one is 404, not the page', async () => {
    const sw = await fetch(`${stack.urls.app}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect(await sw.text()).toContain('addEventListener("push"');
    const manifest = await fetch(`${stack.urls.app}/manifest.webmanifest`);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(await manifest.json()).toEqual({ name: 'Klaxon', start_url: '/' });
    const icon = await fetch(`${stack.urls.app}/icons/icon-192.png`);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(icon.headers.get('cache-control')).toBe('public, max-age=86400');
    for (const missing of ['/icons/icon-1024.png', '/icons/', '/icons/nested/icon.png']) {
      const res = await fetch(`${stack.urls.app}${missing}`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('<div id="root">');
    }
    // Same security headers as every answer (the worker's script is same-origin: the CSP allows it).
    expect(sw.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('when an API path has no route, then its own surface answers (JSON), never the page', async () => {
    const dashboardApi = await request('GET', `${stack.urls.app}/api/no-such-thing`);
    expect(dashboardApi.status).toBe(404);
    expect(dashboardApi.body).toMatchObject({ success: false, code: 'not_found' });
    const v1 = await request('GET', `${stack.urls.app}/api/v1/no-such-thing`);
    expect(v1.status).toBe(404);
    expect(v1.body).toEqual({ message: expect.any(String) });
    const post = await request('POST', `${stack.urls.app}/incidents`, { body: {} });
    expect(post.status).toBe(404);
  });
});
