import { slackSignature, verifySlackSignature } from '../../../../src/integrations/slack/signature';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
// Slack's documented example ("Verifying requests from Slack").
const EXAMPLE_BODY =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
const EXAMPLE_TS = '1531420618';
const EXAMPLE_SIGNATURE = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';

describe('Slack request signatures', () => {
  it('when computed over Slack’s documented example, then it is the documented signature', () => {
    expect(slackSignature(SECRET, EXAMPLE_TS, EXAMPLE_BODY)).toBe(EXAMPLE_SIGNATURE);
  });

  it('when a request is signed with the secret within five minutes, then it is accepted', () => {
    const now = Number(EXAMPLE_TS);
    expect(verifySlackSignature(SECRET, { timestamp: EXAMPLE_TS, signature: EXAMPLE_SIGNATURE, rawBody: EXAMPLE_BODY }, now)).toBe(true);
    expect(verifySlackSignature(SECRET, { timestamp: EXAMPLE_TS, signature: EXAMPLE_SIGNATURE, rawBody: EXAMPLE_BODY }, now + 299)).toBe(true);
    expect(verifySlackSignature(SECRET, { timestamp: EXAMPLE_TS, signature: EXAMPLE_SIGNATURE, rawBody: EXAMPLE_BODY }, now - 299)).toBe(true);
  });

  it('when the timestamp is more than five minutes away (either way), then it is refused', () => {
    const now = Number(EXAMPLE_TS);
    expect(verifySlackSignature(SECRET, { timestamp: EXAMPLE_TS, signature: EXAMPLE_SIGNATURE, rawBody: EXAMPLE_BODY }, now + 360)).toBe(false);
    expect(verifySlackSignature(SECRET, { timestamp: EXAMPLE_TS, signature: EXAMPLE_SIGNATURE, rawBody: EXAMPLE_BODY }, now - 301)).toBe(false);
  });

  it('when the body, the timestamp, the secret or the signature differ, or a header is missing, then it is refused', () => {
    const now = Number(EXAMPLE_TS);
    const ok = { timestamp: EXAMPLE_TS, signature: EXAMPLE_SIGNATURE, rawBody: EXAMPLE_BODY };
    expect(verifySlackSignature(SECRET, { ...ok, rawBody: `${EXAMPLE_BODY}&x=1` }, now)).toBe(false);
    expect(verifySlackSignature(SECRET, { ...ok, timestamp: String(now + 1) }, now)).toBe(false);
    expect(verifySlackSignature(`${SECRET}x`, ok, now)).toBe(false);
    expect(verifySlackSignature(SECRET, { ...ok, signature: EXAMPLE_SIGNATURE.replace(/3$/, '4') }, now)).toBe(false);
    expect(verifySlackSignature(SECRET, { ...ok, signature: EXAMPLE_SIGNATURE.slice(0, -2) }, now)).toBe(false);
    expect(verifySlackSignature(SECRET, { ...ok, signature: EXAMPLE_SIGNATURE.replace('v0=', 'v1=') }, now)).toBe(false);
    expect(verifySlackSignature(SECRET, { ...ok, signature: undefined }, now)).toBe(false);
    expect(verifySlackSignature(SECRET, { ...ok, timestamp: undefined }, now)).toBe(false);
    expect(verifySlackSignature(SECRET, { ...ok, timestamp: 'soon' }, now)).toBe(false);
  });
});
