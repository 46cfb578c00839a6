import { allowedResponseUrl } from '../../../../src/integrations/slack/response-url';

const SLACK_API = 'https://slack.com/api/';

describe('which response_url Klaxon posts to', () => {
  it('when Slack is the real one, then only https://hooks.slack.com URLs are allowed', () => {
    expect(allowedResponseUrl('https://hooks.slack.com/actions/T1/123/abc', SLACK_API)?.href).toBe('https://hooks.slack.com/actions/T1/123/abc');
    for (const url of [
      'http://hooks.slack.com/actions/T1/123/abc',
      'https://hooks.slack.com.evil.example/actions',
      'https://evil.example/hooks.slack.com',
      'https://user:pw@hooks.slack.com/actions',
      'https://hooks.slack.com:8443/actions',
      'https://169.254.169.254/latest/meta-data',
      'http://127.0.0.1:3000/api/members',
      'not a url',
      '',
      undefined,
      `https://hooks.slack.com/${'a'.repeat(2100)}`,
    ]) {
      expect(allowedResponseUrl(url, SLACK_API)).toBeUndefined();
    }
  });

  it('when SLACK_API_URL points at a fake, then its origin is allowed too, and nothing else', () => {
    const fake = 'http://127.0.0.1:4567/api/';
    expect(allowedResponseUrl('http://127.0.0.1:4567/response/abc', fake)).toBeDefined();
    expect(allowedResponseUrl('http://127.0.0.1:4568/response/abc', fake)).toBeUndefined();
    expect(allowedResponseUrl('https://hooks.slack.com/actions/x', fake)).toBeDefined();
  });
});
