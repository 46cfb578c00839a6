import { describe, expect, it } from 'vitest';
import { channelOptions, chatBodyOf, chatFormOf, NONE, slackNoticeOf, teamsTestText } from './chat';

const saved = { destinations: [], slack_channel_id: 'C0ALERTS01', slack_channel_name: 'alerts', teams_webhook_url: 'https://example.webhook.office.com/a' };

describe('the Slack outcome in the query', () => {
  it('connected, refused with a known reason, with Slack’s own code, or nothing', () => {
    expect(slackNoticeOf('?slack=connected')).toMatchObject({ ok: true, title: 'Slack connected' });
    expect(slackNoticeOf('?slack=error&reason=state')).toMatchObject({ ok: false, text: expect.stringContaining('expired') });
    expect(slackNoticeOf('?slack=error&reason=access_denied')!.text).toMatch(/not allowed/);
    expect(slackNoticeOf('?slack=error&reason=invalid_team')!.text).toContain('invalid_team');
    expect(slackNoticeOf('')).toBeNull();
    expect(slackNoticeOf('?slack=maybe')).toBeNull();
  });
});

describe('the Chat dialog’s body', () => {
  it('sends only what changed: a new channel, none (null), a cleared URL (null), a trimmed URL', () => {
    const form = chatFormOf(saved);
    expect(chatBodyOf(form, saved)).toEqual({});
    expect(chatBodyOf({ ...form, slackChannelId: 'C0OPS00002' }, saved)).toEqual({ slack_channel_id: 'C0OPS00002' });
    expect(chatBodyOf({ ...form, slackChannelId: NONE }, saved)).toEqual({ slack_channel_id: null });
    expect(chatBodyOf({ ...form, teamsWebhookUrl: '  ' }, saved)).toEqual({ teams_webhook_url: null });
    expect(chatBodyOf({ slackChannelId: NONE, teamsWebhookUrl: ' https://x.test/h ' }, undefined)).toEqual({ teams_webhook_url: 'https://x.test/h' });
  });

  it('offers none, the channels (private ones marked), and the saved channel even when Slack no longer lists it', () => {
    expect(
      channelOptions(
        [
          { id: 'C0OPS00002', name: 'ops', is_private: false },
          { id: 'G1', name: 'leads', is_private: true },
        ],
        saved,
      ),
    ).toEqual([
      { value: NONE, label: 'None' },
      { value: 'C0OPS00002', label: '#ops' },
      { value: 'G1', label: '🔒leads' },
      { value: 'C0ALERTS01', label: '#alerts' },
    ]);
  });

  it('says what the Teams test did', () => {
    expect(teamsTestText({ delivered: true, status_code: 202, error: null })).toBe('Test card delivered (HTTP 202).');
    expect(teamsTestText({ delivered: false, status_code: 400, error: 'Bad Request' })).toBe('Test card not delivered: Bad Request, HTTP 400.');
    expect(teamsTestText({ delivered: false, status_code: null, error: 'timeout' })).toBe('Test card not delivered: timeout.');
  });
});
