/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register';

/** How often an open tab asks whether a new build was deployed (a responder's tab stays open for days). */
const CHECK_FOR_UPDATES_MS = 60 * 60 * 1000;

/** Whether someone is typing: a reload now would lose what they typed. */
const typing = () => {
  const el = document.activeElement;
  return (
    !!el && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || (el as HTMLElement).isContentEditable)
  );
};

/**
 * Registers the service worker (src/sw.ts, served as /sw.js). A new build's worker takes over at
 * once (autoUpdate); this page then reloads to run the new code with it, at once unless someone is
 * typing in a field, else the next time the tab is hidden.
 */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  registerSW({
    // After the page's load event: the first visit draws the incident list before the worker
    // downloads the app shell for later.
    immediate: false,
    onNeedReload() {
      if (!typing() || document.visibilityState === 'hidden') {
        window.location.reload();
        return;
      }
      const later = () => {
        if (document.visibilityState === 'hidden') window.location.reload();
      };
      document.addEventListener('visibilitychange', later);
    },
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update().catch(() => undefined), CHECK_FOR_UPDATES_MS);
    },
    onRegisterError(error: unknown) {
      console.warn('Klaxon: the service worker was not registered; the dashboard works, but not offline and without pushes', error);
    },
  });
}
