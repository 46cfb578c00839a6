/**
 * Web Push on this device (the profile's "Push on this device"): what the browser can do, what
 * the device is called, which contact method is this browser's subscription. Reads the browser's
 * globals it is given; no requests.
 */

/** Why this browser can or cannot receive pushes. */
export type PushSupport =
  | 'supported'
  /** An iPhone or iPad in Safari's tab: pushes need the app added to the Home Screen and opened from there. */
  | 'ios-needs-home-screen'
  /** No service worker, Push API or notifications (an old or locked-down browser, or a page not served over https). */
  | 'unsupported';

/** The browser globals these read; `window` in the app, a stand-in in tests. */
export interface BrowserLike {
  navigator: Navigator;
  matchMedia?: (query: string) => { matches: boolean };
  PushManager?: unknown;
  Notification?: unknown;
}

/** An iPhone or iPad, including iPadOS that says it is a Mac (a Mac has no touch screen). */
export function isIos(nav: Pick<Navigator, 'userAgent'> & { maxTouchPoints?: number }): boolean {
  return /iPhone|iPad|iPod/.test(nav.userAgent) || (/Macintosh/.test(nav.userAgent) && (nav.maxTouchPoints ?? 0) > 1);
}

/** Whether the page runs as an installed app (from the Home Screen or an app window), not in a tab. */
export function isStandalone(w: BrowserLike): boolean {
  return !!w.matchMedia?.('(display-mode: standalone)').matches || (w.navigator as Navigator & { standalone?: boolean }).standalone === true;
}

export function pushSupport(w: BrowserLike): PushSupport {
  const capable = 'serviceWorker' in w.navigator && !!w.PushManager && !!w.Notification;
  if (capable) return 'supported';
  // iOS Safari gives the Push API only to a Home Screen app (iOS 16.4 and later).
  return isIos(w.navigator) && !isStandalone(w) ? 'ios-needs-home-screen' : 'unsupported';
}

/** "Chrome on Android", "Safari on iPhone": a name for this device that its owner recognises (and may change). */
export function deviceName(userAgent: string): string {
  const browser = /Edg(e|A|iOS)?\//.test(userAgent)
    ? 'Edge'
    : /OPR\/|Opera/.test(userAgent)
      ? 'Opera'
      : /SamsungBrowser\//.test(userAgent)
        ? 'Samsung Internet'
        : /Firefox\/|FxiOS\//.test(userAgent)
          ? 'Firefox'
          : /Chrome\/|CriOS\/|Chromium\//.test(userAgent)
            ? 'Chrome'
            : /Safari\//.test(userAgent)
              ? 'Safari'
              : 'Browser';
  const system = /iPhone/.test(userAgent)
    ? 'iPhone'
    : /iPad/.test(userAgent)
      ? 'iPad'
      : /Android/.test(userAgent)
        ? 'Android'
        : /CrOS/.test(userAgent)
          ? 'ChromeOS'
          : /Windows/.test(userAgent)
            ? 'Windows'
            : /Mac OS X|Macintosh/.test(userAgent)
              ? 'macOS'
              : /Linux/.test(userAgent)
                ? 'Linux'
                : '';
  return system ? `${browser} on ${system}` : browser;
}

/**
 * The push endpoint a contact method's address names: the server may answer the subscription as
 * its JSON (object or text) or as its endpoint URL. Null when it names none.
 */
export function endpointOf(address: unknown): string | null {
  if (address && typeof address === 'object') {
    const endpoint = (address as { endpoint?: unknown }).endpoint;
    return typeof endpoint === 'string' ? endpoint : null;
  }
  if (typeof address !== 'string') return null;
  const text = address.trim();
  if (text.startsWith('{')) {
    try {
      return endpointOf(JSON.parse(text));
    } catch {
      return null;
    }
  }
  return /^https:\/\//.test(text) ? text : null;
}

/** A VAPID public key (base64url, as GET /api/push/vapid-public-key gives it) as the bytes subscribe() takes. */
export function vapidKeyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether a subscription was made with this key (the server's key changed: subscribe again). */
export function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const current = subscription.options?.applicationServerKey;
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

/** POST /api/contact-methods/{id}/test's answer. */
export interface TestPushOutcome {
  delivered: boolean;
  status_code: number | null;
  error: string | null;
}

/** A test push's outcome in words. */
export function describeTestOutcome(o: TestPushOutcome): string {
  if (o.delivered) return `Sent: the push service accepted it${o.status_code ? ` (${o.status_code})` : ''}. It should show on that device within seconds.`;
  const why = o.error ?? 'the push service refused it';
  return `Not delivered: ${why}${o.status_code ? ` (status ${o.status_code})` : ''}.${o.status_code === 404 || o.status_code === 410 ? ' The browser dropped this subscription: disable it and enable push again on that device.' : ''}`;
}
