import { createSendgridSender } from '../../../src/integrations/sendgrid';
import type { OutgoingPage } from '../../../src/integrations/types';
import { startSendgridFake, type SendgridFake } from '../../../src/integrations/sendgrid/testing/wire-fake';
import { expectPermanent, expectRetryable } from './expect-failure';

const KEY = 'SG.sendgrid-key-do-not-leak';
const FROM = 'Klaxon <pager@klaxon.test>';

let fake: SendgridFake;
let sender: ReturnType<typeof createSendgridSender>;
beforeAll(async () => {
  fake = await startSendgridFake({ apiKey: KEY });
  sender = createSendgridSender({ apiKey: KEY, from: FROM, apiBaseUrl: fake.url });
});
afterAll(() => fake.close());

const page = (over: Partial<OutgoingPage> = {}): OutgoingPage => ({
  notificationId: '0b7e4a6c-3f0e-4f7a-9d55-2f7c1e9d8a01',
  channel: 'email',
  to: 'oncall@example.test',
  subject: '[Klaxon] Checkout is down',
  text: 'Checkout is down. Acknowledge: https://app.example.test/a/abc',
  html: '<p>Checkout is down. <a href="https://app.example.test/a/abc">Acknowledge</a></p>',
  ...over,
});

describe('SendGrid email through @sendgrid/mail', () => {
  it('when an email page is sent, then the fake receives recipient, sender, subject, both bodies and the notification id with the Bearer key, and its message id comes back', async () => {
    const sent = await sender.send(page());
    const got = fake.emails().find((e) => e.messageId === sent.providerMessageId)!;
    expect(sent).toEqual({ provider: 'sendgrid', providerMessageId: expect.any(String) });
    expect(got.authorized).toBe(true);
    expect(got.body.personalizations).toEqual([{ to: [{ email: 'oncall@example.test' }] }]);
    expect(got.body.from).toEqual({ email: 'pager@klaxon.test', name: 'Klaxon' });
    expect(got.body.subject).toBe('[Klaxon] Checkout is down');
    expect(got.body.content).toEqual([
      { type: 'text/plain', value: page().text },
      { type: 'text/html', value: page().html },
    ]);
    expect(got.body.custom_args).toEqual({ notification_id: page().notificationId });
  });

  it('when SendGrid refuses the address with 400, then the failure is permanent and names the address', async () => {
    fake.failAddress('nobody@invalid.test');
    const err = await expectPermanent(sender.send(page({ to: 'nobody@invalid.test' })), /nobody@invalid\.test refused: Does not contain a valid address/, [
      KEY,
    ]);
    expect(err.message).toContain('HTTP 400');
  });

  it('when SendGrid answers 500, then the error is retryable and a later attempt succeeds', async () => {
    fake.failAddress('flaky@example.test', 500);
    await expectRetryable(sender.send(page({ to: 'flaky@example.test' })), /HTTP 500/, [KEY]);
    fake.clearFailure('flaky@example.test');
    await expect(sender.send(page({ to: 'flaky@example.test' }))).resolves.toMatchObject({ provider: 'sendgrid' });
  });

  it('when the API key is wrong, then SendGrid answers 401, the error is retryable and neither key leaks', async () => {
    const wrong = 'SG.wrong-key-that-must-not-leak';
    const bad = createSendgridSender({ apiKey: wrong, from: FROM, apiBaseUrl: fake.url });
    await expectRetryable(bad.send(page()), /HTTP 401/, [KEY, wrong]);
    expect(fake.requests.at(-1)).toMatchObject({ status: 401, authorized: false });
  });

  it('when SendGrid cannot be reached, then the error is retryable', async () => {
    const nowhere = createSendgridSender({ apiKey: KEY, from: FROM, apiBaseUrl: 'http://127.0.0.1:1' });
    await expectRetryable(nowhere.send(page()), /email not sent/, [KEY]);
  });
});
