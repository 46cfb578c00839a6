import { readSlackState, signSlackState, slackStateKey, SLACK_STATE_TTL_MS } from '../../../../src/integrations/slack/oauth-state';

const key = slackStateKey('a-secret-that-is-at-least-32-characters-long');
const who = { organizationId: 'org-1', userId: 'user-1', sessionId: 'session-1' };
const now = Date.UTC(2026, 11, 8, 9, 0, 0);

describe('the Slack install state', () => {
  it('when read back by the same session within 10 minutes, then it gives its nonce and binding; two states differ', () => {
    const state = signSlackState(key, who, now);
    const read = readSlackState(key, state, who, now + SLACK_STATE_TTL_MS - 1);
    expect(read).toMatchObject({ organizationId: 'org-1', userId: 'user-1', expiresAt: now + SLACK_STATE_TTL_MS });
    expect(read!.nonce).toMatch(/^[\w-]{22}$/);
    expect(signSlackState(key, who, now)).not.toBe(state);
    expect(state).not.toContain('session-1');
  });

  it('when expired, another session, user or workspace, another key, altered or malformed, then refused', () => {
    const state = signSlackState(key, who, now);
    const [body, mac] = state.split('.');
    expect(readSlackState(key, state, who, now + SLACK_STATE_TTL_MS)).toBeUndefined();
    expect(readSlackState(key, state, { ...who, sessionId: 'session-2' }, now)).toBeUndefined();
    expect(readSlackState(key, state, { ...who, userId: 'user-2' }, now)).toBeUndefined();
    expect(readSlackState(key, state, { ...who, organizationId: 'org-2' }, now)).toBeUndefined();
    expect(readSlackState(slackStateKey('another-secret-that-is-at-least-32-characters'), state, who, now)).toBeUndefined();
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), x: now + 10 * SLACK_STATE_TTL_MS })).toString(
      'base64url',
    );
    expect(readSlackState(key, `${forged}.${mac}`, who, now)).toBeUndefined();
    for (const bad of ['', 'x', `${body}.`, `.${mac}`, `${state}.x`, `${body}.${mac.slice(1)}`, 'a'.repeat(5000)]) {
      expect(readSlackState(key, bad, who, now)).toBeUndefined();
    }
  });
});
