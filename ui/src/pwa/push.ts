/**
 * What the service worker (src/sw.ts) does with a Web Push page and a tap on it, as plain
 * functions of what the browser hands over, so they are tested without a worker.
 */

/** A push's JSON, as the server sends it (src/integrations/webpush); ids and tokens are null on a test push. */
export interface PushPayload {
  incident_id: string | null;
  title: string;
  body: string;
  url: string;
  action_token: string | null;
}

/** What a notification carries for its click handler. */
export interface PageData {
  incident_id: string | null;
  url: string;
  action_token: string | null;
}

/** The notification button that acknowledges the incident without opening anything. */
export const ACKNOWLEDGE = 'acknowledge';
/** The tag of a test push: one at a time, a new one replaces the last. */
export const TEST_TAG = 'klaxon-test';
/** Where a notification's Acknowledge button posts its token (no session needed; the server acts once). */
export const ACTION_HOOK = '/hooks/push/action';

/** Options for showNotification, including the fields TypeScript's DOM types leave out (actions, renotify). */
export interface PageNotificationOptions {
  body: string;
  tag: string;
  renotify: boolean;
  requireInteraction: boolean;
  icon: string;
  badge: string;
  data: PageData;
  actions: Array<{ action: string; title: string }>;
}

const text = (v: unknown, fallback: string) => (typeof v === 'string' && v.trim() ? v : fallback);
const textOrNull = (v: unknown) => (typeof v === 'string' && v ? v : null);

/**
 * A push's data as a page: JSON as agreed, or any text as the body (a push is never dropped: a
 * page nobody sees is worse than an odd-looking one).
 */
export function parsePush(data: { json(): unknown; text(): string } | null): PushPayload {
  let raw: unknown;
  try {
    raw = data?.json();
  } catch {
    raw = { body: data?.text() };
  }
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  return {
    incident_id: textOrNull(o.incident_id),
    title: text(o.title, 'Klaxon'),
    body: text(o.body, ''),
    url: text(o.url, '/'),
    action_token: textOrNull(o.action_token),
  };
}

/**
 * The notification for a page: one per incident (a new page on it replaces the last and rings
 * again), kept until dealt with, with an Acknowledge button where the browser shows buttons.
 */
export function pageNotification(p: PushPayload, supportsActions: boolean): { title: string; options: PageNotificationOptions } {
  return {
    title: p.title,
    options: {
      body: p.body,
      tag: p.incident_id ?? TEST_TAG,
      renotify: true,
      requireInteraction: true,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { incident_id: p.incident_id, url: p.url, action_token: p.action_token },
      actions: p.action_token && supportsActions ? [{ action: ACKNOWLEDGE, title: 'Acknowledge' }] : [],
    },
  };
}

/** The body of POST /hooks/push/action. */
export const acknowledgeRequest = (token: string): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ token }),
});

/**
 * The short notification after Acknowledge was tapped: the server's own words when it gave any
 * (`message`, or the error envelope's `error`), else what its status means.
 */
export function acknowledgeOutcome(status: number | null, body: unknown): { ok: boolean; title: string; body: string } {
  const o = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const said = typeof o.message === 'string' ? o.message : typeof o.error === 'string' ? o.error : '';
  if (status !== null && status >= 200 && status < 300)
    return { ok: true, title: 'Acknowledged', body: said || 'The incident is acknowledged: escalation stops.' };
  if (status === null) return { ok: false, title: 'Not acknowledged', body: 'Klaxon could not be reached. Tap to open the incident.' };
  return { ok: false, title: 'Not acknowledged', body: `${said || `The server answered ${status}.`} Tap to open the incident.` };
}

/** A notification's URL made absolute on this origin; another origin's URL is kept as it is. */
export const absoluteUrl = (url: string, origin: string) => new URL(url || '/', origin).href;

/** An open window, as the worker's `clients.matchAll` lists it. */
export interface OpenWindow {
  readonly url: string;
  focus(): Promise<OpenWindow>;
  navigate(url: string): Promise<OpenWindow | null>;
}

/** What a notification click needs from the worker (the real ones in sw.ts, fakes in tests). */
export interface ClickDeps {
  origin: string;
  fetch(url: string, init: RequestInit): Promise<Response>;
  showNotification(title: string, options: object): Promise<void>;
  windows(): Promise<readonly OpenWindow[]>;
  openWindow(url: string): Promise<unknown>;
}

/**
 * A click on a page notification (it is already closed): Acknowledge posts the token and says
 * how that went; any other click opens the incident.
 */
export async function onNotificationClick(action: string, raw: PageData | null | undefined, deps: ClickDeps): Promise<void> {
  const data: PageData = raw ?? { incident_id: null, url: '/', action_token: null };
  if (action === ACKNOWLEDGE && data.action_token) await acknowledge(data, data.action_token, deps);
  else await openPage(absoluteUrl(data.url, deps.origin), deps);
}

/** Acknowledge from the notification: the token is the authority (no session), then a short confirmation. */
async function acknowledge(data: PageData, token: string, deps: ClickDeps) {
  let status: number | null = null;
  let body: unknown;
  try {
    const res = await deps.fetch(ACTION_HOOK, acknowledgeRequest(token));
    status = res.status;
    body = await res.json().catch(() => undefined);
  } catch {
    // Offline: said below, and a tap on it opens the incident.
  }
  const outcome = acknowledgeOutcome(status, body);
  await deps.showNotification(outcome.title, {
    body: outcome.body,
    // Replaces the page's notification; a test push has no incident.
    tag: data.incident_id ?? TEST_TAG,
    renotify: false,
    requireInteraction: !outcome.ok,
    icon: '/icons/icon-192.png',
    // A tap on the confirmation opens the incident; it carries no token, so it cannot acknowledge again.
    data: { incident_id: data.incident_id, url: data.url, action_token: null } satisfies PageData,
  });
}

/** Focuses an open dashboard window and shows the incident there, or opens a window on it. */
async function openPage(url: string, deps: ClickDeps) {
  const ours = (await deps.windows()).find((w) => new URL(w.url).origin === deps.origin);
  if (ours && new URL(url).origin === deps.origin) {
    const focused = await ours.focus();
    // navigate() needs a window this worker controls; an uncontrolled one is only focused.
    await focused.navigate(url).catch(() => undefined);
    return;
  }
  await deps.openWindow(url);
}
