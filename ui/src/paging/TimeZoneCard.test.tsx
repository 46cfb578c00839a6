import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { optionsOf } from '../test/select-options';
import { browserTimeZone } from '../time/format';
import { TimeZoneCard } from './TimeZoneCard';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = (time_zone: string | null) => ({ id: 'u1', email: 'ada@example.test', name: 'Ada', role: 'MEMBER', time_zone });

describe('My profile’s time zone', () => {
  it('when none is set, then it says the browser’s zone is used; picking Asia/Tokyo and saving sends it, and the card then says times are shown in it', async () => {
    const { calls } = fakeApi({ 'GET /profile': ok(me(null)), 'PUT /profile': ok(me('Asia/Tokyo')) });
    renderWithApp(<TimeZoneCard />);
    await screen.findByText(new RegExp(`Not set: times are shown in this browser’s zone \\(${browserTimeZone()}\\)`));
    const select = screen.getByRole('combobox', { name: 'Time zone' });
    await waitFor(() => expect((select as HTMLInputElement).disabled).toBe(false));
    fireEvent.click((await optionsOf(select)).getByRole('option', { name: 'Asia/Tokyo', hidden: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Save time zone' }));
    await screen.findByText('Times are shown in Asia/Tokyo, and reports count days in it.');
    expect(calls('PUT /profile')).toEqual([{ time_zone: 'Asia/Tokyo' }]);
  });

  it('when the server refuses the zone, then its message is under the field; "Use this browser’s zone" clears it', async () => {
    const { calls } = fakeApi({
      'GET /profile': ok(me('Europe/Berlin')),
      'PUT /profile': [refused(400, 'invalid_request', 'time_zone: unknown time zone "Europe/Berlin"'), ok(me(null))],
    });
    renderWithApp(<TimeZoneCard />);
    await screen.findByText('Times are shown in Europe/Berlin, and reports count days in it.');
    const select = screen.getByRole('combobox', { name: 'Time zone' });
    fireEvent.click((await optionsOf(select)).getByRole('option', { name: 'Europe/Paris', hidden: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Save time zone' }));
    await screen.findByText('time_zone: unknown time zone "Europe/Berlin"');
    fireEvent.click(screen.getByRole('button', { name: 'Use this browser’s zone' }));
    await screen.findByText(/Not set: times are shown in this browser’s zone/);
    expect(calls('PUT /profile')).toEqual([{ time_zone: 'Europe/Paris' }, { time_zone: null }]);
  });
});
