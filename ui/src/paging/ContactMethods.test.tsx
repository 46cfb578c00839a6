import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { optionsOf } from '../test/select-options';
import { ContactMethods } from './ContactMethods';

afterEach(cleanup);

const channel = (id: string, label: string, address_label: string, address_placeholder: string) => ({
  id,
  label,
  address_label,
  address_placeholder,
  drillable: true,
  testable: true,
});

describe('adding a contact method', () => {
  it('when the server lists a channel the dashboard has never heard of, then the form offers it with its own address wording, and never Slack or web push', async () => {
    const api = fakeApi({
      'GET /auth/session': ok(sessionAs('MEMBER')),
      'GET /channels': ok({
        channels: [
          channel('sms', 'SMS', 'Phone number', '+14155550100'),
          channel('email', 'Email', 'Email address', 'ann@example.com'),
          channel('push_web', 'Web push', 'Browser subscription', ''),
          channel('slack', 'Slack', 'Slack member id', ''),
          channel('pushover', 'Pushover', 'Pushover user key', '30 letters and digits'),
        ],
      }),
    });
    renderWithApp(<ContactMethods methods={[]} rules={[]} />);
    const form = await screen.findByRole('form', { name: 'Add a contact method' });
    const type = within(form).getByLabelText(/^Type/);
    await waitFor(() => expect(api.calls('GET /channels')).toHaveLength(1));
    // The answer reached the form: the address field already uses the server's wording for SMS.
    expect(await within(form).findByLabelText(/^Phone number/)).toBeTruthy();
    const options = await optionsOf(type);
    expect(options.getAllByRole('option', { hidden: true }).map((o) => o.textContent)).toEqual(['SMS', 'Email', 'Pushover']);
    fireEvent.click(options.getByRole('option', { name: 'Pushover', hidden: true }));
    expect(await within(form).findByLabelText(/^Pushover user key/)).toBeTruthy();
    expect(within(form).getByText('30 letters and digits')).toBeTruthy();
  });
});
