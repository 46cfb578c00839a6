import { Alert, Badge, Button, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ApiError, describeError } from '../api/client';
import { ConfirmModal } from '../components/ConfirmModal';
import { useConfirmedAction } from '../components/useConfirmedAction';
import { CONTACTS, describeMethod, isWebPush, RULES, WEB_PUSH, type ContactMethod, type NotificationRule } from './contact-methods';
import { describeTestOutcome, deviceName, endpointOf, pushSupport, sameKey, vapidKeyBytes, type TestPushOutcome } from './web-push';

/** How long enabling waits for the service worker (it registers when the dashboard loads). */
const WORKER_WAIT_MS = 10_000;

/** The envelope's `data`, or the body itself when a route answers without the envelope. */
const dataOf = <T,>(res: { data?: T } | T): T => ((res as { data?: T }).data ?? res) as T;

/** This browser's service worker, once it runs; an error if it does not within WORKER_WAIT_MS. */
async function readyWorker(): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('the dashboard’s service worker is not running in this browser (a private window may block it): reload the page and try again')),
      WORKER_WAIT_MS,
    );
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** This browser's push subscription, if it has one (without waiting for a worker that may never come). */
async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

type Outcome = { id: string; text: string; ok: boolean };

/**
 * "Push on this device": enables Web Push in this browser (asks for permission only on the click,
 * subscribes, registers the subscription as a push_web contact method), lists the member's
 * browsers with a test push and Disable each, and says plainly where pushes fall short.
 */
export function PushOnThisDevice({ methods, rules }: { methods: ContactMethod[]; rules: NotificationRule[] }) {
  const client = useQueryClient();
  const support = pushSupport(window as unknown as Parameters<typeof pushSupport>[0]);
  const [permission, setPermission] = useState<NotificationPermission | 'unknown'>(() =>
    typeof Notification === 'undefined' ? 'unknown' : Notification.permission,
  );
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [label, setLabel] = useState(() => deviceName(navigator.userAgent));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [testing, setTesting] = useState<string | undefined>();

  useEffect(() => {
    if (support !== 'supported') return;
    let live = true;
    currentSubscription()
      .then((s) => live && setEndpoint(s?.endpoint ?? null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [support]);

  const devices = methods.filter(isWebPush);
  const thisDevice = endpoint ? devices.find((m) => endpointOf(m.address) === endpoint) : undefined;
  const rulesOf = (m: ContactMethod) => rules.filter((r) => r.contact_method_id === m.id).length;

  async function enable() {
    setError(undefined);
    setNotice(undefined);
    setBusy(true);
    try {
      const answer = await Notification.requestPermission();
      setPermission(answer);
      if (answer !== 'granted') {
        if (answer === 'default') setNotice('You closed the question without answering: click again to be asked again.');
        return;
      }
      const registration = await readyWorker();
      const key = dataOf<{ public_key: string }>(await api<{ public_key: string }>('GET', '/push/vapid-public-key')).public_key;
      const bytes = vapidKeyBytes(key);
      let subscription = await registration.pushManager.getSubscription();
      if (subscription && !sameKey(subscription, bytes)) {
        await subscription.unsubscribe();
        subscription = null;
      }
      subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
      setEndpoint(subscription.endpoint);
      try {
        await api<ContactMethod>('POST', '/contact-methods', {
          type: WEB_PUSH,
          address: subscription.toJSON(),
          label: label.trim() || deviceName(navigator.userAgent),
        });
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'duplicate_contact_method')) throw err;
        setNotice('This device was already registered: it is enabled.');
      }
      await Promise.all([client.invalidateQueries({ queryKey: CONTACTS }), client.invalidateQueries({ queryKey: RULES })]);
    } catch (err) {
      setError(err instanceof Error ? describeError(err) : String(err));
    } finally {
      setBusy(false);
    }
  }

  async function sendTest(m: ContactMethod) {
    setTesting(m.id);
    setOutcome(undefined);
    try {
      const o = dataOf<TestPushOutcome>(await api<TestPushOutcome>('POST', `/contact-methods/${m.id}/test`));
      setOutcome({ id: m.id, ok: o.delivered, text: describeTestOutcome(o) });
    } catch (err) {
      setOutcome({ id: m.id, ok: false, text: `Not sent: ${err instanceof Error ? describeError(err) : String(err)}` });
    } finally {
      setTesting(undefined);
    }
  }

  const disable = useConfirmedAction(
    async (m: ContactMethod) => {
      await api('DELETE', `/contact-methods/${m.id}`);
      // This browser's own subscription goes too, so it stops receiving anything.
      if (m.id === thisDevice?.id) {
        const subscription = await currentSubscription().catch(() => null);
        await subscription?.unsubscribe().catch(() => false);
        setEndpoint(null);
      }
    },
    { invalidate: [CONTACTS, RULES] },
  );

  return (
    <Stack gap="sm" aria-label="Push on this device" role="region">
      <Title order={3}>Push on this device</Title>
      <Text size="sm" c="dimmed">
        Pages arrive as notifications on this phone or computer, from the browser’s push service, even when Klaxon is not open.
      </Text>

      {support === 'ios-needs-home-screen' && (
        <Alert color="yellow" title="Add Klaxon to the Home Screen first">
          On iPhone and iPad, Safari gives pushes only to apps on the Home Screen (iOS 16.4 or later): tap Share, then Add to Home Screen, open Klaxon from
          there and come back to this page.
        </Alert>
      )}
      {support === 'unsupported' && (
        <Alert color="yellow" title="This browser cannot receive pushes">
          It has no service worker or Push API (an old browser, a private window, or a page not served over https). Use a current Chrome, Edge, Firefox or
          Safari, or keep SMS and phone calls for your pages.
        </Alert>
      )}
      {support === 'supported' && permission === 'denied' && (
        <Alert color="red" title="Notifications are blocked for Klaxon in this browser">
          Allow them again in the site settings: click the icon left of the address (the lock or the sliders), then Notifications → Allow, and reload. On
          Android: Settings → Apps → your browser (or Klaxon) → Notifications. On iPhone: Settings → Notifications → Klaxon.
        </Alert>
      )}

      {support === 'supported' &&
        (thisDevice ? (
          <Group gap="xs">
            <Badge color="green" variant="light">
              Enabled on this device
            </Badge>
            <Text size="sm">{describeMethod(thisDevice)}</Text>
          </Group>
        ) : (
          permission !== 'denied' && (
            <Group align="end" wrap="wrap">
              <TextInput
                label="Device name"
                description="How your list below names this device"
                value={label}
                onChange={(e) => setLabel(e.currentTarget.value)}
                style={{ flex: '1 1 200px' }}
                maxLength={100}
              />
              <Button onClick={() => void enable()} loading={busy}>
                Enable push on this device
              </Button>
            </Group>
          )
        ))}
      {error && (
        <Alert color="red" title="Push not enabled" role="alert">
          {error}
        </Alert>
      )}
      {notice && (
        <Text size="sm" role="status">
          {notice}
        </Text>
      )}

      {devices.length > 0 && (
        <Stack gap="xs" role="list" aria-label="Devices with push">
          {devices.map((m) => (
            <Paper key={m.id} withBorder p="sm" radius="md" role="listitem" aria-label={describeMethod(m)}>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {describeMethod(m)}
                  </Text>
                  {m.id === thisDevice?.id && (
                    <Badge color="indigo" variant="light">
                      This device
                    </Badge>
                  )}
                  {m.disabled_at && (
                    <Badge color="gray" variant="light">
                      Not paged: {m.disabled_reason ?? 'the push service refused it'}
                    </Badge>
                  )}
                </Group>
                <Group gap="xs">
                  <Button
                    size="compact-sm"
                    variant="light"
                    loading={testing === m.id}
                    onClick={() => void sendTest(m)}
                    aria-label={`Send test push to ${describeMethod(m)}`}
                  >
                    Send test push
                  </Button>
                  <Button size="compact-sm" variant="subtle" color="red" onClick={() => disable.ask(m)} aria-label={`Disable ${describeMethod(m)}`}>
                    Disable
                  </Button>
                </Group>
              </Group>
              {outcome?.id === m.id && (
                <Text size="sm" c={outcome.ok ? 'green' : 'red'} role="status" mt={4}>
                  {outcome.text}
                </Text>
              )}
            </Paper>
          ))}
        </Stack>
      )}

      <List size="sm" c="dimmed" aria-label="What pushes cannot do">
        <List.Item>On iPhone and iPad, pushes need Klaxon added to the Home Screen (iOS 16.4 or later) and opened from there once.</List.Item>
        <List.Item>iPhone, iPad and Safari show no buttons on notifications: tap the notification to open the incident and acknowledge it there.</List.Item>
        <List.Item>Focus modes and Do Not Disturb may silence pushes; a phone saving battery may deliver them late.</List.Item>
        <List.Item fw={600}>Keep an SMS or a phone call as a later step in your notification rules for night pages.</List.Item>
      </List>

      <ConfirmModal {...disable.modal} title="Disable push on this device?" confirmLabel="Disable push">
        {disable.target &&
          `Klaxon will no longer push pages to ${describeMethod(disable.target)}.${rulesOf(disable.target) ? ` Its ${rulesOf(disable.target)} notification rule(s) go with it.` : ''}`}
      </ConfirmModal>
    </Stack>
  );
}
