/**
 * The dashboard's service worker (docs/pwa.md), built by vite-plugin-pwa (injectManifest) into
 * ui/dist/sw.js and served at /sw.js, scope `/`:
 * - Workbox precaches the app shell (index.html, every script and style chunk, the icons) that
 *   the build lists in `self.__WB_MANIFEST`, and answers page navigations with the cached
 *   index.html, so the dashboard opens offline.
 * - Nothing else is routed: /api, /hooks, /ingest (and anything not precached) never reach a
 *   cache, the browser fetches them from the network as if there were no worker.
 * - A push is a page: shown at once, one notification per incident, with Acknowledge where the
 *   browser shows buttons; a tap opens the incident.
 * A new build's worker takes over at once (skipWaiting, clientsClaim) and deletes the old
 * precache; the page reloads itself when it does (src/pwa/register.ts).
 *
 * TypeScript sees this file with the DOM library (ui/tsconfig.json) and without the WebWorker
 * one (the two conflict), so the few worker types used here are declared below.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { onNotificationClick, pageNotification, parsePush, type PageData } from './pwa/push';

interface SwExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface SwPushEvent extends SwExtendableEvent {
  readonly data: { json(): unknown; text(): string } | null;
}
interface SwNotificationEvent extends SwExtendableEvent {
  readonly action: string;
  readonly notification: Notification & { data: PageData | null };
}
interface SwWindowClient {
  readonly url: string;
  focus(): Promise<SwWindowClient>;
  navigate(url: string): Promise<SwWindowClient | null>;
}
interface SwGlobal {
  readonly registration: ServiceWorkerRegistration;
  readonly location: Location;
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<SwWindowClient[]>;
    openWindow(url: string): Promise<SwWindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'push', listener: (event: SwPushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: SwNotificationEvent) => void): void;
  __WB_MANIFEST: Array<{ url: string; revision: string | null } | string>;
}
declare const self: SwGlobal;

// Updates: the new worker does not wait for every tab to close.
void self.skipWaiting();
clientsClaim();

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// A page of the dashboard (any path the router draws) is the cached shell. Server paths are
// not pages: a link to /hooks/… (an email's Acknowledge), /api/… or /auth/sso/… (single sign-on) goes to the server.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/(api|auth|hooks|ingest|healthz|readyz|metrics)(\/|$)/, /^\/sw\.js$/, /^\/manifest\.webmanifest$/, /^\/(icons|assets)\//],
  }),
);

/** Whether this browser draws notification buttons (Chrome, Edge, Firefox on desktop and Android do; Safari does not). */
const supportsActions = () =>
  typeof Notification !== 'undefined' && 'actions' in Notification.prototype && ((Notification as unknown as { maxActions?: number }).maxActions ?? 0) > 0;

self.addEventListener('push', (event) => {
  const { title, options } = pageNotification(parsePush(event.data), supportsActions());
  event.waitUntil(self.registration.showNotification(title, options as NotificationOptions));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(
    onNotificationClick(event.action, event.notification.data, {
      origin: self.location.origin,
      fetch: (url, init) => fetch(url, init),
      showNotification: (title, options) => self.registration.showNotification(title, options as NotificationOptions),
      windows: () => self.clients.matchAll({ type: 'window', includeUncontrolled: true }),
      openWindow: (url) => self.clients.openWindow(url),
    }),
  );
});

// pushsubscriptionchange (a browser renewing the subscription) is not handled: re-registering
// needs the signed-in session's CSRF token, which the worker does not have. The next page to the
// old subscription fail at the push service (404/410, which Send test push shows on the profile
// page); enabling push again on the device fixes it (docs/pwa.md).
