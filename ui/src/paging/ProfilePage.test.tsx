import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused, type FakeRoutes } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import type { ContactMethod, NotificationRule } from './contact-methods';
import { ProfilePage } from './ProfilePage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const phone: ContactMethod = {
  id: 'c1',
  user_id: 'u1',
  type: 'sms',
  address: '+15550100',
  label: 'work phone',
  disabled_at: null,
  disabled_reason: null,
  verified_at: null,
  created_at: '2026-11-24T10:00:00.000Z',
};
const email: ContactMethod = { ...phone, id: 'c2', type: 'email', address: 'ada@example.test', label: null, verified_at: '2026-11-24T10:00:00.000Z' };
/** A fake /api: the session, the lists, and whatever the test answers to changes. */
function serve(lists: { methods: ContactMethod[]; rules: NotificationRule[] }, changes: FakeRoutes) {
  const api = fakeApi({
    'GET /auth/session': ok({ user: { id: 'u1', email: 'ada@example.test', name: 'Ada' }, role: 'MEMBER', csrf_token: 'c' }),
    'GET /contact-methods': ok(lists.methods),
    'GET /notification-rules': ok(lists.rules),
    ...changes,
  });
  renderWithApp(<ProfilePage />);
  return api;
}

describe('ProfilePage', () => {
  it('when a contact method came with an import, then it says Imported next to its state; one made here does not', async () => {
    const imported: ContactMethod = { ...phone, id: 'c3', address: '+15550111', label: 'Mobile', verified_at: '2026-11-24T10:00:00.000Z', source: 'import' };
    serve({ methods: [imported, email], rules: [] }, {});
    const item = await screen.findByRole('listitem', { name: 'SMS +15550111 (Mobile)' });
    expect(within(item).getByText('Verified')).toBeTruthy();
    expect(within(item).getByText('Imported')).toBeTruthy();
    expect(within(screen.getByRole('listitem', { name: 'Email ada@example.test' })).queryByText('Imported')).toBeNull();
  });

  it('when a wrong code is typed, then the server’s message is next to the code field; a resend within a minute shows when to ask again', async () => {
    const { calls } = serve(
      { methods: [phone, email], rules: [] },
      {
        'POST /contact-methods/c1/verify': refused(400, 'code_invalid', 'code: wrong code; 4 attempt(s) left'),
        'POST /contact-methods/c1/resend': refused(429, 'rate_limited', 'a code was sent less than a minute ago; ask again in 42 s'),
      },
    );
    const form = await screen.findByRole('form', { name: 'Verify +15550100' });
    expect(within(screen.getByRole('listitem', { name: 'SMS +15550100 (work phone)' })).getByText('Unverified')).toBeTruthy();
    expect(within(screen.getByRole('listitem', { name: 'Email ada@example.test' })).getByText('Verified')).toBeTruthy();

    fireEvent.change(within(form).getByRole('textbox', { name: '6-digit code' }), { target: { value: '123456' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Verify' }));
    await within(form).findByText('code: wrong code; 4 attempt(s) left');
    expect(within(form).getByRole('textbox', { name: '6-digit code' }).getAttribute('aria-invalid')).toBe('true');
    expect(calls('POST /contact-methods/c1/verify')).toEqual([{ code: '123456' }]);

    fireEvent.click(within(form).getByRole('button', { name: 'Send a new code' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('ask again in 42 s');
  });

  it('when a rule is added, then its delay goes out in seconds; a duplicate is said in words, naming the method', async () => {
    const { calls } = serve(
      { methods: [phone], rules: [] },
      { 'POST /notification-rules': refused(409, 'duplicate_notification_rule', 'contact method c1 already has a rule at 120 seconds') },
    );
    const form = await screen.findByRole('form', { name: 'Add a notification rule' });
    expect(screen.getByText(/No notification rule yet: when you are paged, Klaxon emails you at once/)).toBeTruthy();
    fireEvent.change(within(form).getByRole('textbox', { name: /^Delay \(minutes\)/ }), { target: { value: '2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add rule' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('There is already a rule for SMS +15550100 (work phone) after 2 min.');
    expect(calls('POST /notification-rules')).toEqual([{ contact_method_id: 'c1', delay_seconds: 120 }]);
  });

  it('when a contact method is deleted, then it is asked first, naming the rules that go with it', async () => {
    const rule: NotificationRule = { id: 'r1', user_id: 'u1', contact_method_id: 'c1', delay_seconds: 0 };
    const { calls } = serve({ methods: [phone], rules: [rule] }, { 'DELETE /contact-methods/c1': ok({ id: 'c1', removed: true, rules_removed: 1 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete SMS +15550100 (work phone)' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Its 1 notification rule(s) go with it.');
    expect(calls('DELETE /contact-methods/c1')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete contact method' }));
    await waitFor(() => expect(calls('DELETE /contact-methods/c1')).toHaveLength(1));
  });
});
