import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../test/render';
import { InstallButton, IosInstallHint } from './InstallHint';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  localStorage.clear();
});

/** Chromium's install offer, as the browser fires it. */
function offerInstall() {
  const prompt = vi.fn(async () => undefined);
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), { prompt, userChoice: Promise.resolve({ outcome: 'accepted' }) });
  act(() => {
    window.dispatchEvent(event);
  });
  return { prompt, event };
}

describe('installing Klaxon', () => {
  it('when the browser offers installing, then the header shows Install, which opens the browser’s prompt once', async () => {
    renderWithApp(<InstallButton layout="header" />);
    expect(screen.queryByRole('button', { name: 'Install Klaxon' })).toBeNull();
    const { prompt, event } = offerInstall();
    expect(event.defaultPrevented).toBe(true); // our button instead of the browser's mini-infobar
    fireEvent.click(await screen.findByRole('button', { name: 'Install Klaxon' }));
    await vi.waitFor(() => expect(prompt).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Install Klaxon' })).toBeNull());
  });

  it('when the offer is closed, then it stays closed', async () => {
    renderWithApp(<InstallButton layout="header" />);
    offerInstall();
    fireEvent.click(await screen.findByRole('button', { name: 'Do not offer installing' }));
    expect(screen.queryByRole('button', { name: 'Install Klaxon' })).toBeNull();
    cleanup();
    renderWithApp(<InstallButton layout="header" />);
    offerInstall();
    expect(screen.queryByRole('button', { name: 'Install Klaxon' })).toBeNull();
  });

  it('when the page is an iPhone’s Safari tab, then one line says how to install; elsewhere nothing', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    );
    renderWithApp(<IosInstallHint />);
    expect((await screen.findByRole('note', { name: 'Install Klaxon' })).textContent).toContain('Add to Home Screen from the Share menu to get pushes');
    fireEvent.click(screen.getByRole('button', { name: 'Close the install hint' }));
    expect(screen.queryByRole('note')).toBeNull();

    cleanup();
    localStorage.clear();
    vi.restoreAllMocks();
    renderWithApp(<IosInstallHint />);
    expect(screen.queryByRole('note')).toBeNull();
  });
});
