import { describe, expect, it, vi } from 'vitest';
import { absoluteUrl, acknowledgeOutcome, acknowledgeRequest, onNotificationClick, pageNotification, parsePush, type ClickDeps, type OpenWindow } from './push';

const json = (value: unknown) => ({ json: () => value, text: () => JSON.stringify(value) });
const page = {
  incident_id: 'inc-1',
  title: '#12 Checkout is down',
  body: 'CRITICAL · Checkout',
  url: 'https://klaxon.example/incidents/inc-1',
  action_token: 'tok-1',
};

describe('a push as the service worker shows it', () => {
  it('when a page arrives, then it is one notification per incident that rings again, stays, carries its data and offers Acknowledge where buttons show', () => {
    const { title, options } = pageNotification(parsePush(json(page)), true);
    expect(title).toBe('#12 Checkout is down');
    expect(options).toMatchObject({
      body: 'CRITICAL · Checkout',
      tag: 'inc-1',
      renotify: true,
      requireInteraction: true,
      data: { incident_id: 'inc-1', url: 'https://klaxon.example/incidents/inc-1', action_token: 'tok-1' },
      actions: [{ action: 'acknowledge', title: 'Acknowledge' }],
    });
    // Safari shows no buttons: none are asked for.
    expect(pageNotification(parsePush(json(page)), false).options.actions).toEqual([]);
  });

  it('when a test push arrives (no incident, no token), then it has the test tag and no button', () => {
    const { options } = pageNotification(parsePush(json({ ...page, incident_id: null, action_token: null, title: 'Test push' })), true);
    expect(options.tag).toBe('klaxon-test');
    expect(options.actions).toEqual([]);
  });

  it('when a push is not the agreed JSON, then it is still shown', () => {
    const text = { json: () => JSON.parse('not json'), text: () => 'not json' };
    expect(pageNotification(parsePush(text), true)).toMatchObject({ title: 'Klaxon', options: { body: 'not json', tag: 'klaxon-test', actions: [] } });
    expect(parsePush(null)).toEqual({ incident_id: null, title: 'Klaxon', body: '', url: '/', action_token: null });
  });

  it('when Acknowledge is tapped, then the token is posted as JSON, and the outcome is said in the server’s words', () => {
    const req = acknowledgeRequest('tok-1');
    expect(req).toMatchObject({ method: 'POST', headers: { 'Content-Type': 'application/json' } });
    expect(JSON.parse(req.body as string)).toEqual({ token: 'tok-1' });
    expect(acknowledgeOutcome(200, { message: 'Acknowledged #12 Checkout is down' })).toEqual({
      ok: true,
      title: 'Acknowledged',
      body: 'Acknowledged #12 Checkout is down',
    });
    expect(acknowledgeOutcome(200, undefined).title).toBe('Acknowledged');
    expect(acknowledgeOutcome(410, { success: false, error: 'this action was already used' })).toMatchObject({ ok: false, title: 'Not acknowledged' });
    expect(acknowledgeOutcome(410, { error: 'this action was already used' }).body).toContain('this action was already used');
    expect(acknowledgeOutcome(null, undefined).body).toContain('could not be reached');
  });

  it('when a URL is relative, then it is made absolute on the worker’s origin', () => {
    expect(absoluteUrl('/incidents/inc-1', 'https://klaxon.example')).toBe('https://klaxon.example/incidents/inc-1');
    expect(absoluteUrl('', 'https://klaxon.example')).toBe('https://klaxon.example/');
  });
});

/** The worker's side of a click, faked: the hook's answer, the notifications shown, the open windows. */
function worker(opts: { answer?: { status: number; body: unknown } | 'offline'; windows?: string[] } = {}) {
  const navigated: string[] = [];
  const focused: string[] = [];
  const windows: OpenWindow[] = (opts.windows ?? []).map((url) => {
    const w: OpenWindow = {
      url,
      focus: async () => {
        focused.push(url);
        return w;
      },
      navigate: async (to) => {
        navigated.push(to);
        return w;
      },
    };
    return w;
  });
  const deps = {
    origin: 'https://klaxon.example',
    fetch: vi.fn(async (_url: string, _init: RequestInit) => {
      const answer = opts.answer ?? { status: 200, body: { message: 'Acknowledged #12' } };
      if (answer === 'offline') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
    showNotification: vi.fn(async (_title: string, _options: object) => undefined),
    windows: async () => windows,
    openWindow: vi.fn(async (_url: string) => null),
  } satisfies ClickDeps;
  return { deps, navigated, focused };
}

describe('a click on a page notification', () => {
  const data = { incident_id: 'inc-1', url: '/incidents/inc-1', action_token: 'tok-1' };

  it('when Acknowledge is clicked, then the token is posted once to the hook and a confirmation replaces the page, without the token', async () => {
    const { deps } = worker();
    await onNotificationClick('acknowledge', data, deps);
    expect(deps.fetch).toHaveBeenCalledTimes(1);
    const [url, init] = deps.fetch.mock.calls[0];
    expect(url).toBe('/hooks/push/action');
    expect(init).toMatchObject({ method: 'POST', headers: { 'Content-Type': 'application/json' } });
    expect(JSON.parse(init.body as string)).toEqual({ token: 'tok-1' });
    expect(deps.showNotification).toHaveBeenCalledWith(
      'Acknowledged',
      expect.objectContaining({ body: 'Acknowledged #12', tag: 'inc-1', requireInteraction: false }),
    );
    expect(deps.showNotification.mock.calls[0][1]).toMatchObject({ data: { action_token: null, url: '/incidents/inc-1' } });
    expect(deps.openWindow).not.toHaveBeenCalled();
  });

  it('when the hook refuses or cannot be reached, then the confirmation says so and stays', async () => {
    const refused = worker({ answer: { status: 410, body: { success: false, error: 'this link was already used' } } });
    await onNotificationClick('acknowledge', data, refused.deps);
    expect(refused.deps.showNotification).toHaveBeenCalledWith(
      'Not acknowledged',
      expect.objectContaining({ body: 'this link was already used Tap to open the incident.', requireInteraction: true }),
    );
    const offline = worker({ answer: 'offline' });
    await onNotificationClick('acknowledge', data, offline.deps);
    expect(offline.deps.showNotification.mock.calls[0][0]).toBe('Not acknowledged');
  });

  it('when the notification itself is clicked, then an open Klaxon window is focused on the incident, else one is opened', async () => {
    const open = worker({ windows: ['https://elsewhere.example/', 'https://klaxon.example/on-call'] });
    await onNotificationClick('', data, open.deps);
    expect(open.focused).toEqual(['https://klaxon.example/on-call']);
    expect(open.navigated).toEqual(['https://klaxon.example/incidents/inc-1']);
    expect(open.deps.fetch).not.toHaveBeenCalled();
    expect(open.deps.openWindow).not.toHaveBeenCalled();

    const none = worker({ windows: ['https://elsewhere.example/'] });
    await onNotificationClick('', data, none.deps);
    expect(none.deps.openWindow).toHaveBeenCalledWith('https://klaxon.example/incidents/inc-1');
    // A test push (no token) has no Acknowledge: even that action only opens.
    const test = worker();
    await onNotificationClick('acknowledge', { incident_id: null, url: '/', action_token: null }, test.deps);
    expect(test.deps.fetch).not.toHaveBeenCalled();
    expect(test.deps.openWindow).toHaveBeenCalledWith('https://klaxon.example/');
  });
});
