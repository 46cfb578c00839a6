import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused, type FakeRoutes } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { optionsOf } from '../test/select-options';
import type { ContactMethod } from './contact-methods';
import { ProfilePage } from './ProfilePage';

// The browser's push machinery is faked at its boundary (navigator.serviceWorker, PushManager,
// Notification), and /api with fetch; the profile page is drawn as the app draws it.

/** A real VAPID public key's shape: 65 bytes, base64url. */
const VAPID = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/device-1';
const SUBSCRIPTION_JSON = { endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: 'BNcR-p256dh', auth: 'auth-secret' } };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
});

/** This browser as the test needs it: push-capable or not, the permission it has and what asking it answers, a subscription already or not. */
function fakeBrowser(opts: { permission?: NotificationPermission; answer?: NotificationPermission; subscribed?: boolean; capable?: boolean } = {}) {
  const subscription = {
    endpoint: ENDPOINT,
    options: { applicationServerKey: null as ArrayBuffer | null, userVisibleOnly: true },
    toJSON: () => SUBSCRIPTION_JSON,
    unsubscribe: vi.fn(async () => true),
  };
  let current = opts.subscribed ? subscription : null;
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (o: { userVisibleOnly: boolean; applicationServerKey: Uint8Array }) => {
      subscription.options = { userVisibleOnly: o.userVisibleOnly, applicationServerKey: o.applicationServerKey.buffer as ArrayBuffer };
      current = subscription;
      return subscription;
    }),
  };
  const registration = { pushManager };
  const requestPermission = vi.fn(async () => opts.answer ?? 'granted');
  if (opts.capable !== false) {
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { ready: Promise.resolve(registration), getRegistration: vi.fn(async () => registration) },
    });
    vi.stubGlobal('PushManager', function PushManager() {});
  }
  vi.stubGlobal(
    'Notification',
    Object.assign(function Notification() {}, { permission: opts.permission ?? 'default', requestPermission }),
  );
  return { subscription, pushManager, requestPermission };
}

const device = (over: Partial<ContactMethod> = {}): ContactMethod => ({
  id: 'c9',
  user_id: 'u1',
  type: 'push_web',
  address: JSON.stringify(SUBSCRIPTION_JSON),
  label: 'Chrome on Android',
  disabled_at: null,
  disabled_reason: null,
  verified_at: '2026-11-24T10:00:00.000Z',
  created_at: '2026-11-24T10:00:00.000Z',
  ...over,
});

function serve(methods: ContactMethod[], changes: FakeRoutes = {}) {
  const api = fakeApi({
    'GET /auth/session': ok({ user: { id: 'u1', email: 'ada@example.test', name: 'Ada' }, role: 'MEMBER', csrf_token: 'c' }),
    'GET /contact-methods': ok(methods),
    'GET /notification-rules': ok([]),
    'GET /push/vapid-public-key': ok({ public_key: VAPID }),
    ...changes,
  });
  renderWithApp(<ProfilePage />);
  return api;
}

const section = async () => screen.findByRole('region', { name: 'Push on this device' });

describe('Push on this device', () => {
  it('when the page opens, then nothing is asked; on the click permission is asked, the browser subscribes with the server’s key and the subscription is registered with the device name', async () => {
    const browser = fakeBrowser();
    const { calls } = serve([], { 'POST /contact-methods': ok(device({ label: 'Work laptop' }), 'created', 201) });
    const push = await section();
    const button = within(push).getByRole('button', { name: 'Enable push on this device' });
    // Opening the profile asks nothing: the browser's question comes only from the click.
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();

    fireEvent.change(within(push).getByRole('textbox', { name: /^Device name/ }), { target: { value: 'Work laptop' } });
    fireEvent.click(button);
    await waitFor(() => expect(calls('POST /contact-methods')).toHaveLength(1));
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.pushManager.subscribe).toHaveBeenCalledTimes(1);
    const options = browser.pushManager.subscribe.mock.calls[0][0];
    expect(options.userVisibleOnly).toBe(true);
    expect(options.applicationServerKey).toHaveLength(65);
    expect(options.applicationServerKey[0]).toBe(0x04); // an uncompressed P-256 point
    expect(calls('POST /contact-methods')).toEqual([{ type: 'push_web', address: SUBSCRIPTION_JSON, label: 'Work laptop' }]);
  });

  it('when permission is refused, then it says how to allow it again, and nothing is subscribed or registered', async () => {
    const browser = fakeBrowser({ answer: 'denied' });
    const { calls } = serve([]);
    fireEvent.click(within(await section()).getByRole('button', { name: 'Enable push on this device' }));
    await screen.findByText('Notifications are blocked for Klaxon in this browser');
    expect(screen.getByText(/then Notifications → Allow, and reload/)).toBeTruthy();
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
    expect(calls('POST /contact-methods')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Enable push on this device' })).toBeNull();
  });

  it('when the browser has no service worker or Push API, then it says so and offers nothing', async () => {
    fakeBrowser({ capable: false });
    serve([]);
    const push = await section();
    expect(within(push).getByText('This browser cannot receive pushes')).toBeTruthy();
    expect(within(push).queryByRole('button', { name: 'Enable push on this device' })).toBeNull();
    // The limits are said in any case, with the nudge to keep a phone step.
    expect(within(push).getByText('Keep an SMS or a phone call as a later step in your notification rules for night pages.')).toBeTruthy();
    expect(within(push).getByText(/iOS 16.4 or later/)).toBeTruthy();
  });

  it('when this device is already registered (409), then it says so and shows it enabled', async () => {
    fakeBrowser();
    serve([], { 'POST /contact-methods': refused(409, 'duplicate_contact_method', 'this contact method is already registered') });
    fireEvent.click(within(await section()).getByRole('button', { name: 'Enable push on this device' }));
    expect((await screen.findByRole('status')).textContent).toContain('This device was already registered');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when this device is enabled, then it is shown as such; Disable asks, deletes the contact method and unsubscribes this browser', async () => {
    const browser = fakeBrowser({ permission: 'granted', subscribed: true });
    const other = device({
      id: 'c8',
      label: 'Firefox on Windows',
      address: JSON.stringify({ ...SUBSCRIPTION_JSON, endpoint: 'https://updates.push.services.mozilla.com/x' }),
    });
    const { calls } = serve([device(), other], { 'DELETE /contact-methods/c9': ok({ id: 'c9', removed: true, rules_removed: 0 }) });
    const push = await section();
    await within(push).findByText('Enabled on this device');
    const row = within(push).getByRole('listitem', { name: 'Web push · Chrome on Android' });
    expect(within(row).getByText('This device')).toBeTruthy();
    expect(within(within(push).getByRole('listitem', { name: 'Web push · Firefox on Windows' })).queryByText('This device')).toBeNull();
    // Not in the generic list of phone numbers and addresses.
    expect(screen.queryByRole('list', { name: 'Contact methods' })).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: 'Disable Web push · Chrome on Android' }));
    const dialog = await screen.findByRole('dialog');
    expect(calls('DELETE /contact-methods/c9')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable push' }));
    await waitFor(() => expect(calls('DELETE /contact-methods/c9')).toHaveLength(1));
    await waitFor(() => expect(browser.subscription.unsubscribe).toHaveBeenCalledTimes(1));
  });

  it('when another device is disabled, then this browser’s subscription stays', async () => {
    const browser = fakeBrowser({ permission: 'granted', subscribed: true });
    const other = device({ id: 'c8', label: 'Firefox on Windows', address: 'https://updates.push.services.mozilla.com/x' });
    const { calls } = serve([device(), other], { 'DELETE /contact-methods/c8': ok({ id: 'c8', removed: true, rules_removed: 0 }) });
    const push = await section();
    await within(push).findByText('Enabled on this device');
    fireEvent.click(within(push).getByRole('button', { name: 'Disable Web push · Firefox on Windows' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disable push' }));
    await waitFor(() => expect(calls('DELETE /contact-methods/c8')).toHaveLength(1));
    expect(browser.subscription.unsubscribe).not.toHaveBeenCalled();
  });

  it('when a test push is sent, then its outcome is shown by the device: accepted, or why not', async () => {
    fakeBrowser({ permission: 'granted' });
    const other = device({ id: 'c8', label: 'Firefox on Windows' });
    const { calls } = serve([device(), other], {
      'POST /contact-methods/c9/test': ok({ delivered: true, status_code: 201, error: null }),
      'POST /contact-methods/c8/test': ok({ delivered: false, status_code: 410, error: 'the subscription has expired or was unsubscribed' }),
    });
    const push = await section();
    const row = within(push).getByRole('listitem', { name: 'Web push · Chrome on Android' });
    fireEvent.click(within(row).getByRole('button', { name: 'Send test push to Web push · Chrome on Android' }));
    expect((await within(row).findByRole('status')).textContent).toBe(
      'Sent: the push service accepted it (201). It should show on that device within seconds.',
    );
    expect(calls('POST /contact-methods/c9/test')).toHaveLength(1);

    const otherRow = within(push).getByRole('listitem', { name: 'Web push · Firefox on Windows' });
    fireEvent.click(within(otherRow).getByRole('button', { name: 'Send test push to Web push · Firefox on Windows' }));
    const failed = await within(otherRow).findByRole('status');
    expect(failed.textContent).toContain('Not delivered: the subscription has expired or was unsubscribed (status 410).');
    expect(failed.textContent).toContain('enable push again on that device');
  });

  it('when a notification rule is added, then the browsers are offered by their device name', async () => {
    fakeBrowser({ permission: 'granted' });
    const { calls } = serve([device()], {
      'POST /notification-rules': ok({ id: 'r1', user_id: 'u1', contact_method_id: 'c9', delay_seconds: 0 }, 'created', 201),
    });
    const form = await screen.findByRole('form', { name: 'Add a notification rule' });
    const options = await optionsOf(within(form).getByRole('combobox', { name: 'Contact method' }));
    expect(options.getAllByRole('option', { hidden: true }).map((o) => o.textContent)).toEqual(['Web push · Chrome on Android']);
    fireEvent.click(within(form).getByRole('button', { name: 'Add rule' }));
    await waitFor(() => expect(calls('POST /notification-rules')).toEqual([{ contact_method_id: 'c9', delay_seconds: 0 }]));
  });
});
