import { ActionIcon, Button, Group, Text } from '@mantine/core';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { isIos, isStandalone } from '../paging/web-push';

/** Chromium's install offer (not in TypeScript's DOM types). */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** Remembered once someone closes the hint: asked once, not on every page. */
const DISMISSED = 'klaxon.install-hint-dismissed';

// The offer comes once per page load, maybe before React draws the header: kept from the start.
let offer: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((l) => l());
if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault(); // shown as our button, not the browser's mini-infobar
    offer = e as InstallPromptEvent;
    changed();
  });
  window.addEventListener('appinstalled', () => {
    offer = null;
    changed();
  });
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

function useDismissed(): [boolean, () => void] {
  const [dismissed, setDismissed] = useState(() => {
    try {
      return localStorage.getItem(DISMISSED) === '1';
    } catch {
      return false;
    }
  });
  return [
    dismissed,
    () => {
      setDismissed(true);
      try {
        localStorage.setItem(DISMISSED, '1');
      } catch {
        // Private mode: closed for this page only.
      }
    },
  ];
}

/**
 * "Install Klaxon" where the browser offers installing (Chrome, Edge, Samsung Internet on Android
 * and desktop); closable, and closed for good once closed. `header`: a button in the header, from
 * tablet width up; `strip`: one line above the page on a phone, where the header has no room.
 * Elsewhere nothing.
 */
export function InstallButton({ layout }: { layout: 'header' | 'strip' }) {
  const current = useSyncExternalStore(subscribe, () => offer);
  const [dismissed, dismiss] = useDismissed();
  if (!current || dismissed) return null;
  async function install() {
    if (!current) return;
    await current.prompt();
    await current.userChoice.catch(() => undefined);
    offer = null; // one prompt per offer
    changed();
  }
  const buttons = (
    <>
      <Button size="compact-sm" variant="light" onClick={() => void install()} aria-label="Install Klaxon">
        Install
      </Button>
      <ActionIcon size="sm" variant="subtle" color="gray" onClick={dismiss} aria-label="Do not offer installing">
        ×
      </ActionIcon>
    </>
  );
  if (layout === 'header')
    return (
      <Group gap={2} wrap="nowrap" visibleFrom="sm">
        {buttons}
      </Group>
    );
  return (
    <Group gap="xs" wrap="nowrap" mb="sm" hiddenFrom="sm">
      <Text size="sm" c="dimmed" style={{ flex: 1 }}>
        Install Klaxon as an app on this phone.
      </Text>
      {buttons}
    </Group>
  );
}

/** On an iPhone or iPad in Safari's tab: the one way to install, in one closable line. */
export function IosInstallHint() {
  const [dismissed, dismiss] = useDismissed();
  const [show, setShow] = useState(false);
  useEffect(() => setShow(isIos(navigator) && !isStandalone(window as unknown as Parameters<typeof isStandalone>[0])), []);
  if (!show || dismissed) return null;
  return (
    <Group gap="xs" wrap="nowrap" mb="sm" role="note" aria-label="Install Klaxon">
      <Text size="sm" c="dimmed" style={{ flex: 1 }}>
        Add to Home Screen from the Share menu to get pushes.
      </Text>
      <ActionIcon size="sm" variant="subtle" color="gray" onClick={dismiss} aria-label="Close the install hint">
        ×
      </ActionIcon>
    </Group>
  );
}
