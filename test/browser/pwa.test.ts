import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { CHROMIUM, dashboardInBrowser, logInInBrowser, saveScreenshot, sidewaysOverflow } from '../support/browser';
import { signUpAndLogIn } from '../support/dashboard';

// The dashboard as an installable app (docs/pwa.md) in a real Chromium against the real stack:
// the manifest and its icons, the service worker at /sw.js taking the whole origin, the app shell
// opening offline while /api does not, and a push delivered through the DevTools protocol shown
// as the page notification with its Acknowledge button.
const suite = dashboardInBrowser();

// The browser's globals the functions below use inside the page (the root tsconfig has no DOM library).
interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  requireInteraction: boolean;
  data: unknown;
  actions: Array<{ action: string; title: string }>;
}
interface PageWorker {
  state: string;
  scriptURL: string;
  addEventListener(type: 'statechange', listener: () => void): void;
}
declare const navigator: {
  serviceWorker: {
    ready: Promise<{ scope: string; active: PageWorker | null; getNotifications(): Promise<ShownNotification[]> }>;
    controller: PageWorker | null;
    addEventListener(type: 'controllerchange', listener: () => void, options: { once: boolean }): void;
  };
};
declare const Notification: { permission: string; maxActions?: number };
const app = () => suite.app;

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
}

/** A PNG's width and height, from its IHDR chunk; throws on anything that is not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a' || bytes.subarray(12, 16).toString('ascii') !== 'IHDR') throw new Error('not a PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Waits until this origin's service worker is activated and controls the page (clientsClaim); its scope, script and state. */
async function activeWorker(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const active = registration.active!;
    if (active.state !== 'activated') {
      await new Promise<void>((resolve) => active.addEventListener('statechange', () => active.state === 'activated' && resolve()));
    }
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
    }
    return { scope: registration.scope, script: registration.active?.scriptURL, state: registration.active?.state };
  });
}

/** The DevTools id of the registration whose scope is `scope`, from the ServiceWorker domain's events. */
async function registrationIdFor(cdp: CDPSession, scope: string): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }> }) => {
      const match = e.registrations.find((r) => r.scopeURL === scope && !r.isDeleted);
      if (match) resolve(match.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

describe('the installable dashboard in Chromium', () => {
  it('when the manifest, icons and worker are fetched, then they are what installing needs, with their types and caching, and never the page instead', async () => {
    const res = await fetch(`${app()}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as Manifest;
    expect(manifest).toMatchObject({ name: 'Klaxon', short_name: 'Klaxon', start_url: '/', scope: '/', display: 'standalone' });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    for (const size of [192, 512]) {
      const icon = manifest.icons.find((i) => i.sizes === `${size}x${size}` && (i.purpose ?? 'any').includes('any'));
      expect(icon).toMatchObject({ type: 'image/png' });
      const file = await fetch(new URL(icon!.src, app()));
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/png');
      expect(pngSize(Buffer.from(await file.arrayBuffer()))).toEqual({ width: size, height: size });
    }
    const maskable = manifest.icons.find((i) => i.purpose === 'maskable')!;
    expect(pngSize(Buffer.from(await (await fetch(new URL(maskable.src, app()))).arrayBuffer()))).toEqual({ width: 512, height: 512 });
    const touch = await fetch(`${app()}/icons/apple-touch-icon.png`);
    expect(pngSize(Buffer.from(await touch.arrayBuffer()))).toEqual({ width: 180, height: 180 });

    const sw = await fetch(`${app()}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    const code = await sw.text();
    expect(code).not.toContain('<!doctype html>');
    // Workbox's precache list was injected: the page itself is in it.
    expect(code).toMatch(/"url":"index\.html"/);

    // A missing icon is a 404, not the dashboard's page; the page links the manifest.
    expect((await fetch(`${app()}/icons/nope.png`)).status).toBe(404);
    expect(await (await fetch(`${app()}/`)).text()).toContain('<link rel="manifest" href="/manifest.webmanifest">');
  });

  it('when the dashboard opens, then the worker takes the whole origin and Chromium finds it installable; offline, the app shell opens from the cache and /api fails instead of answering stale', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    await logInInBrowser(suite.page, app(), owner);
    const worker = await activeWorker(suite.page);
    expect(worker).toEqual({ scope: `${app()}/`, script: `${app()}/sw.js`, state: 'activated' });

    // Chromium's own installability checks (manifest fields, icons, a worker with a fetch handler,
    // a secure origin: 127.0.0.1 counts as one).
    const cdp = await suite.page.context().newCDPSession(suite.page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toBe(`${app()}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    // Playwright's contexts are incognito profiles, where Chrome never installs: that is the one
    // error here (a real profile, in the next test, has none).
    const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> };
    expect(installability.installabilityErrors.map((e) => e.errorId)).toEqual(['in-incognito']);

    // The network goes away; the page reloads from the worker's precache.
    await suite.page.context().setOffline(true);
    await suite.page.reload();
    // The shell draws (from the cache) and says /api cannot be reached: the session is not served from a cache.
    await suite.page.getByText('Klaxon cannot be reached: you are offline or the server is down').waitFor();
    const api = await suite.page.evaluate(async () => {
      try {
        const res = await fetch('/api/incidents');
        return `answered ${res.status}`;
      } catch (err) {
        return `failed: ${(err as Error).name}`;
      }
    });
    expect(api).toBe('failed: TypeError');
    // Another page of the dashboard, straight from the address bar, opens too (the navigation fallback).
    await suite.page.goto(`${app()}/on-call`);
    await suite.page.getByText('Klaxon cannot be reached', { exact: false }).waitFor();
    // A server path is never the cached page: it fails offline.
    await expect(suite.page.goto(`${app()}/hooks/email/whatever`)).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);

    // Back online, the same tab works again, signed in.
    await suite.page.context().setOffline(false);
    await suite.page.goto(`${app()}/`);
    await suite.page.getByRole('heading', { name: 'Incidents' }).waitFor();
  }, 90_000);

  it('when the dashboard opens in a real (not incognito) Chromium profile, then Chromium reports no installability error at all', async () => {
    const profile = mkdtempSync(path.join(tmpdir(), 'klaxon-pwa-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${app()}/login`);
      await activeWorker(page);
      const cdp = await context.newCDPSession(page);
      const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> };
      expect(installability.installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 60_000);

  it('when a push arrives, then the worker shows it as the incident’s notification, with Acknowledge', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    await suite.page.context().grantPermissions(['notifications'], { origin: app() });
    await logInInBrowser(suite.page, app(), owner);
    await activeWorker(suite.page);

    const cdp = await suite.page.context().newCDPSession(suite.page);
    const registrationId = await registrationIdFor(cdp, `${app()}/`);
    const payload = {
      incident_id: '00000000-0000-4000-8000-000000000012',
      title: '#12 Checkout is down',
      body: 'CRITICAL · Checkout · paged by Primary',
      url: `${app()}/incidents/00000000-0000-4000-8000-000000000012`,
      action_token: 'signed-action-token',
    };
    // Chromium's DevTools deliver a push to the worker as the push service would (no subscription needed).
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(app()).origin, registrationId, data: JSON.stringify(payload) });

    const shown = await suite.page.waitForFunction(
      async () => {
        const list = await (await navigator.serviceWorker.ready).getNotifications();
        const maxActions = Notification.maxActions ?? 0;
        return list.length
          ? list.map((n) => ({
              title: n.title,
              body: n.body,
              tag: n.tag,
              requireInteraction: n.requireInteraction,
              data: n.data,
              actions: n.actions.map((a) => ({ action: a.action, title: a.title })),
              maxActions,
            }))
          : null;
      },
      undefined,
      { timeout: 15_000 },
    );
    const notifications = (await shown.jsonValue()) as Array<Record<string, unknown> & { maxActions: number }>;
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      title: '#12 Checkout is down',
      body: 'CRITICAL · Checkout · paged by Primary',
      tag: payload.incident_id,
      requireInteraction: true,
      data: { incident_id: payload.incident_id, url: payload.url, action_token: 'signed-action-token' },
    });
    // Chromium on Linux draws notification buttons (maxActions 2, headless too): Acknowledge is there.
    expect(notifications[0].maxActions).toBeGreaterThan(0);
    expect(notifications[0].actions).toEqual([{ action: 'acknowledge', title: 'Acknowledge' }]);

    // A second page on the same incident replaces its notification rather than stacking another.
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: new URL(app()).origin,
      registrationId,
      data: JSON.stringify({ ...payload, body: 'CRITICAL · Checkout · escalated to step 2' }),
    });
    await suite.page.waitForFunction(
      async () => {
        const list = await (await navigator.serviceWorker.ready).getNotifications();
        return list.length === 1 && list[0].body.includes('step 2');
      },
      undefined,
      { timeout: 15_000 },
    );
    // No DevTools command clicks a notification, so Acknowledge and a tap (notificationclick) are
    // covered by ui/src/pwa/push.test.ts rather than here.
  }, 90_000);

  it('when My profile is opened on a 390 px phone, then Push on this device offers enabling and says its limits, the Install button fits, and nothing scrolls sideways', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    await suite.page.setViewportSize({ width: 390, height: 844 });
    await logInInBrowser(suite.page, app(), owner);
    await suite.page.goto(`${app()}/profile`);
    const push = suite.page.getByRole('region', { name: 'Push on this device' });
    // Chromium has a service worker, the Push API and notifications: enabling is offered (asking nothing yet).
    await push.getByRole('button', { name: 'Enable push on this device' }).waitFor();
    expect(await push.getByRole('textbox', { name: /^Device name/ }).inputValue()).toBe('Chrome on Linux');
    await push.getByText('Keep an SMS or a phone call as a later step in your notification rules for night pages.').waitFor();
    expect(await suite.page.evaluate(() => Notification.permission)).toBe('default');
    expect(await sidewaysOverflow(suite.page)).toBeLessThanOrEqual(0);

    // Where Chromium offers installing (not in Playwright's incognito contexts: the offer is
    // dispatched here as the browser would), the Install offer fits the phone too.
    await suite.page.evaluate(`(() => {
      const offer = new Event('beforeinstallprompt', { cancelable: true });
      offer.prompt = async () => { window.__klaxonPrompted = true; };
      offer.userChoice = Promise.resolve({ outcome: 'accepted' });
      window.dispatchEvent(offer);
    })()`);
    const install = suite.page.getByRole('button', { name: 'Install Klaxon' });
    await install.waitFor();
    expect(await sidewaysOverflow(suite.page)).toBeLessThanOrEqual(0);
    // On a phone it is a line above the page: the header keeps all of its buttons in view.
    const logOut = (await suite.page.getByRole('button', { name: 'Log out' }).boundingBox())!;
    expect(logOut.x + logOut.width).toBeLessThanOrEqual(390);
    await saveScreenshot(suite.page, 'profile-push-390');
    await install.click();
    await install.waitFor({ state: 'detached' });
    expect(await suite.page.evaluate('window.__klaxonPrompted')).toBe(true);

    // The responder's other pages keep fitting the phone with the worker in front (the incident
    // list and an incident page: responder.test.ts).
    await suite.page.getByRole('button', { name: 'Menu' }).click();
    await suite.page.getByRole('link', { name: 'On call' }).click();
    await suite.page.getByRole('heading', { name: 'On call', exact: true }).waitFor();
    expect(await sidewaysOverflow(suite.page)).toBeLessThanOrEqual(0);
  }, 60_000);
});
