import { describe, expect, it } from 'vitest';
import { absoluteUrl, acknowledgeOutcome, acknowledgeRequest, pageNotification, parsePush } from './push';

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
