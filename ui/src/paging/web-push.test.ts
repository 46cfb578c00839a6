import { describe, expect, it } from 'vitest';
import { describeTestOutcome, deviceName, endpointOf, pushSupport, vapidKeyBytes } from './web-push';

const UA = {
  androidChrome: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
  iphoneSafari: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  macFirefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:131.0) Gecko/20100101 Firefox/131.0',
  windowsEdge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
  ipadAsMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
};

describe('Web Push on this device', () => {
  it('when a device is named, then it is the browser on the system', () => {
    expect(deviceName(UA.androidChrome)).toBe('Chrome on Android');
    expect(deviceName(UA.iphoneSafari)).toBe('Safari on iPhone');
    expect(deviceName(UA.macFirefox)).toBe('Firefox on macOS');
    expect(deviceName(UA.windowsEdge)).toBe('Edge on Windows');
  });

  it('when the browser lacks the Push API, then an iPhone in a tab is told to add to the Home Screen, others are unsupported', () => {
    const nav = (userAgent: string, extra: object = {}) => ({ userAgent, maxTouchPoints: 0, ...extra }) as unknown as Navigator;
    const tab = () => ({ matches: false });
    expect(pushSupport({ navigator: nav(UA.iphoneSafari), matchMedia: tab })).toBe('ios-needs-home-screen');
    expect(pushSupport({ navigator: nav(UA.ipadAsMac, { maxTouchPoints: 5 }), matchMedia: tab })).toBe('ios-needs-home-screen');
    expect(pushSupport({ navigator: nav(UA.macFirefox), matchMedia: tab })).toBe('unsupported');
    expect(pushSupport({ navigator: nav(UA.androidChrome, { serviceWorker: {} }), matchMedia: tab, PushManager: {}, Notification: {} })).toBe('supported');
  });

  it('when a contact method’s address is read, then its endpoint is found whether it is JSON, an object or the URL', () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/x';
    expect(endpointOf(JSON.stringify({ endpoint, keys: {} }))).toBe(endpoint);
    expect(endpointOf({ endpoint, keys: {} })).toBe(endpoint);
    expect(endpointOf(endpoint)).toBe(endpoint);
    expect(endpointOf('+14155550100')).toBeNull();
    expect(endpointOf('{broken')).toBeNull();
  });

  it('when the VAPID key is decoded, then base64url without padding gives its 65 bytes', () => {
    const bytes = vapidKeyBytes('BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U');
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
  });

  it('when a test push’s outcome is said, then a gone subscription says what to do', () => {
    expect(describeTestOutcome({ delivered: true, status_code: 201, error: null })).toContain('accepted it (201)');
    expect(describeTestOutcome({ delivered: false, status_code: 410, error: 'gone' })).toContain('enable push again on that device');
    expect(describeTestOutcome({ delivered: false, status_code: null, error: 'no VAPID keys configured' })).toBe('Not delivered: no VAPID keys configured.');
  });
});
