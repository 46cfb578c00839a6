import { describe, expect, it } from 'vitest';
import { addressLabel, CONTACT_TYPE_OPTIONS, describeMethod, methodState, ruleTiming } from './contact-methods';

describe('contact methods as people read them', () => {
  it('when a method is described, then its type, address and label show; a device token only by its start', () => {
    expect(describeMethod({ type: 'sms', address: '+14155550100', label: 'work phone' })).toBe('SMS +14155550100 (work phone)');
    expect(describeMethod({ type: 'email', address: 'ada@example.test', label: null })).toBe('Email ada@example.test');
    expect(describeMethod({ type: 'push_android', address: 'abcdefgh-secret-part-of-the-token', label: null })).toBe('Android push abcdefgh…');
    // A browser's subscription is named by its device, never by its endpoint and keys.
    expect(describeMethod({ type: 'push_web', address: '{"endpoint":"https://fcm.googleapis.com/fcm/send/x"}', label: 'Chrome on Android' })).toBe(
      'Web push · Chrome on Android',
    );
    expect(describeMethod({ type: 'push_web', address: 'https://push.example/x', label: null })).toBe('Web push · a browser');
  });

  it('when a contact method is added by hand, then Web Push is not offered: it is enabled from the device', () => {
    expect(CONTACT_TYPE_OPTIONS.map((o) => o.value)).not.toContain('push_web');
    expect(CONTACT_TYPE_OPTIONS.map((o) => o.value)).toContain('sms');
  });

  it('when a method is disabled it is so even if verified; a phone without its code is unverified', () => {
    expect(methodState({ verified_at: null, disabled_at: null })).toBe('unverified');
    expect(methodState({ verified_at: '2026-01-01T00:00:00Z', disabled_at: null })).toBe('verified');
    expect(methodState({ verified_at: '2026-01-01T00:00:00Z', disabled_at: '2026-01-02T00:00:00Z' })).toBe('disabled');
  });

  it('when the address field is labelled, then it says what to type for the type', () => {
    expect(addressLabel('voice')).toBe('Phone number');
    expect(addressLabel('email')).toBe('Email address');
    expect(addressLabel('push_ios')).toBe('Device token');
  });

  it('when a rule’s timing is shown, then 0 is at once and the rest in minutes', () => {
    expect(ruleTiming(0)).toBe('At once');
    expect(ruleTiming(120)).toBe('After 2 min');
  });
});
