import http from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';
import { createTwilioSenders } from '../../../src/integrations/twilio';
import { PERMANENT_DELIVERY_FAILURE, type OutgoingPage } from '../../../src/integrations/types';
import { readBody } from '../../../src/integrations/testing/http-util';
import { startTwilioFake, type TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { expectPermanent, expectRetryable } from './expect-failure';

const ACCOUNT = 'AC' + 'a1'.repeat(16);
const TOKEN = 'twilio-auth-token-do-not-leak';
const FROM = '+15550001111';

let fake: TwilioFake;
let senders: ReturnType<typeof createTwilioSenders>;
beforeAll(async () => {
  fake = await startTwilioFake({ accountSid: ACCOUNT, authToken: TOKEN });
  senders = createTwilioSenders({ accountSid: ACCOUNT, authToken: TOKEN, fromNumber: FROM, apiBaseUrl: fake.url });
});
afterAll(() => fake.close());

const page = (over: Partial<OutgoingPage> = {}): OutgoingPage => ({
  notificationId: '6f1d1c52-5d1e-4d39-9a0e-6b0f1c1d2e3f',
  channel: 'sms',
  to: '+15557654321',
  subject: 'Checkout is down',
  text: '[Klaxon] Checkout is down. Reply 4A to acknowledge, 4R to resolve',
  ...over,
});

describe('Twilio SMS and voice through the twilio SDK', () => {
  it('when an SMS page is sent, then the fake receives To, From, Body and StatusCallback with the account Basic auth, and its SID comes back', async () => {
    const sent = await senders.sms.send(page({ statusCallbackUrl: 'https://app.example.test/hooks/twilio/status' }));
    const got = fake.messages().find((m) => m.sid === sent.providerMessageId)!;
    expect(sent).toEqual({ provider: 'twilio', providerMessageId: expect.stringMatching(/^SM[0-9a-f]{32}$/) });
    expect(got.username).toBe(ACCOUNT);
    expect(got.params).toEqual({ To: '+15557654321', From: FROM, Body: page().text, StatusCallback: 'https://app.example.test/hooks/twilio/status' });
    expect(got.at).toBeLessThanOrEqual(Date.now());
  });

  it('when a voice page is sent, then the call carries the TwiML and a CA SID comes back', async () => {
    const twiml =
      '<Response><Gather numDigits="1" action="https://app.example.test/hooks/twilio/voice"><Say>Checkout is down. Press 1 to acknowledge, 2 to escalate.</Say></Gather></Response>';
    const sent = await senders.voice.send(page({ channel: 'voice', voiceTwiml: twiml }));
    const call = fake.calls().find((c) => c.sid === sent.providerMessageId)!;
    expect(sent.providerMessageId).toMatch(/^CA[0-9a-f]{32}$/);
    expect(call.params).toEqual({ To: '+15557654321', From: FROM, Twiml: twiml });
  });

  it('when a voice page has no TwiML, then it fails permanently and nothing reaches Twilio', async () => {
    const before = fake.requests.length;
    await expectPermanent(senders.voice.send(page({ channel: 'voice', to: '+15550009999' })), /needs voiceTwiml/, [TOKEN]);
    expect(fake.requests.length).toBe(before);
  });

  it.each([
    [21211, /invalid To number/],
    [21614, /not a mobile number/],
    [21610, /STOP/],
    [21612, /not reachable via SMS/],
    [21408, /region is not enabled/],
  ])('when Twilio answers error %i, then the failure is permanent, readable and names the number', async (code, reason) => {
    const to = `+1555100${code}`;
    fake.failTo(to, { code });
    const err = await expectPermanent(senders.sms.send(page({ to })), reason, [TOKEN]);
    expect(err.message).toContain(to);
    expect(err.message).toContain(String(code));
    expect(err.type).toBe(PERMANENT_DELIVERY_FAILURE);
  });

  it('when Twilio answers 500, then the error is retryable and a later attempt succeeds', async () => {
    const to = '+15552000500';
    fake.failTo(to, { status: 500, message: 'Internal Server Error' });
    await expectRetryable(senders.sms.send(page({ to })), /HTTP 500/, [TOKEN]);
    fake.clearFailure(to);
    await expect(senders.sms.send(page({ to }))).resolves.toMatchObject({ provider: 'twilio' });
  });

  it('when the auth token is wrong, then Twilio refuses with 401, the error is retryable and neither token leaks', async () => {
    const wrong = 'wrong-token-that-must-not-leak';
    const bad = createTwilioSenders({ accountSid: ACCOUNT, authToken: wrong, fromNumber: FROM, apiBaseUrl: fake.url });
    await expectRetryable(bad.sms.send(page()), /HTTP 401.*20003/, [TOKEN, wrong]);
    expect(fake.requests.at(-1)).toMatchObject({ status: 401, username: ACCOUNT });
  });

  it('when Twilio cannot be reached, then the error is retryable', async () => {
    const nowhere = createTwilioSenders({ accountSid: ACCOUNT, authToken: TOKEN, fromNumber: FROM, apiBaseUrl: 'http://127.0.0.1:1' });
    await expectRetryable(nowhere.sms.send(page()), /ECONNREFUSED|not sent/, [TOKEN]);
  });
});

describe('the Twilio fake calling us back', () => {
  it('when it replies by SMS, sends a keypress or reports a status, then twilio.validateRequest accepts the signature, and a forged one is refused', async () => {
    const seen: Array<{ valid: boolean; params: Record<string, string> }> = [];
    const hook = http.createServer(async (req, res) => {
      const params = Object.fromEntries(new URLSearchParams(await readBody(req)));
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}${req.url}`;
      seen.push({ valid: twilio.validateRequest(TOKEN, String(req.headers['x-twilio-signature']), url, params), params });
      res.writeHead(200, { 'Content-Type': 'text/xml' }).end('<Response/>');
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
    try {
      const call = await senders.voice.send(page({ channel: 'voice', to: '+15553334444', voiceTwiml: '<Response/>' }));
      expect(await fake.replySms({ from: '+15557654321', to: FROM, body: '4a', url: `${base}/hooks/twilio/sms` })).toEqual({
        status: 200,
        body: '<Response/>',
      });
      await fake.pressKey({ callSid: call.providerMessageId!, digits: '1', url: `${base}/hooks/twilio/voice?n=1` });
      await fake.callBackTo(`${base}/hooks/twilio/status`, { MessageSid: 'SM' + '0'.repeat(32), MessageStatus: 'delivered' });
      await fake.replySms({ from: '+15557654321', to: FROM, body: '4a', url: `${base}/hooks/twilio/sms`, signWith: 'forger' });
      expect(seen.map((s) => s.valid)).toEqual([true, true, true, false]);
      expect(seen[0].params).toMatchObject({ From: '+15557654321', To: FROM, Body: '4a', AccountSid: ACCOUNT, MessageSid: expect.stringMatching(/^SM/) });
      expect(seen[1].params).toMatchObject({ CallSid: call.providerMessageId, Digits: '1', From: FROM, To: '+15553334444', AccountSid: ACCOUNT });
      expect(seen[2].params).toEqual({ AccountSid: ACCOUNT, MessageSid: 'SM' + '0'.repeat(32), MessageStatus: 'delivered' });
    } finally {
      await new Promise<void>((r) => hook.close(() => r()));
    }
  });
});
