import { createSmtpSender } from '../../../src/integrations/smtp';
import type { ChannelSender, OutgoingPage } from '../../../src/integrations/types';
import { startSmtpFake, type SmtpFake } from '../../../src/integrations/smtp/testing/wire-fake';
import { expectPermanent, expectRetryable } from './expect-failure';

const USER = 'klaxon';
const PASSWORD = 'smtp-password-do-not-leak';
const FROM = 'Klaxon <pager@klaxon.test>';

let fake: SmtpFake;
const senders: ChannelSender[] = [];
const sender = (url: string) => {
  const s = createSmtpSender({ url, from: FROM });
  senders.push(s);
  return s;
};
beforeAll(async () => {
  fake = await startSmtpFake({ user: USER, password: PASSWORD });
});
afterAll(async () => {
  await Promise.all(senders.map((s) => s.close?.()));
  await fake.close();
});

const page = (over: Partial<OutgoingPage> = {}): OutgoingPage => ({
  notificationId: '2d1f6c0e-9a1b-4c3d-8e7f-0a1b2c3d4e5f',
  channel: 'email',
  to: 'oncall@example.test',
  subject: '[Klaxon] Checkout is down',
  text: 'Checkout is down. Acknowledge: https://app.example.test/a/abc',
  html: '<p>Checkout is down.</p>',
  ...over,
});

describe('SMTP email through nodemailer', () => {
  it('when an email page is sent, then the relay receives the envelope, headers and both bodies after logging in, and the Message-ID comes back', async () => {
    const sent = await sender(fake.url()).send(page());
    const got = await fake.waitFor((m) => m.data.includes(page().notificationId));
    expect(sent).toEqual({ provider: 'smtp', providerMessageId: expect.stringMatching(/^<[^@<>]+@[^<>]+>$/) });
    expect(got).toMatchObject({ user: USER, from: 'pager@klaxon.test', to: ['oncall@example.test'] });
    expect(got.data).toMatch(/^Subject: \[Klaxon\] Checkout is down$/m);
    expect(got.data).toMatch(/^From: Klaxon <pager@klaxon\.test>$/m);
    expect(got.data).toMatch(/^To: oncall@example\.test$/m);
    expect(got.data).toContain(`Message-ID: ${sent.providerMessageId}`);
    expect(got.data).toContain('Content-Type: text/plain');
    expect(got.data).toContain('Checkout is down. Acknowledge: https://app.example.test/a/abc');
    expect(got.data).toContain('<p>Checkout is down.</p>');
  });

  it('when the relay refuses the recipient with 550, then the failure is permanent and names the address', async () => {
    fake.rejectRecipient('ghost@example.test');
    const before = fake.messages.length;
    await expectPermanent(sender(fake.url()).send(page({ to: 'ghost@example.test' })), /ghost@example\.test refused: .*550 5\.1\.1/, [PASSWORD]);
    expect(fake.messages.length).toBe(before);
  });

  it('when the relay defers the recipient with 451, then the error is retryable', async () => {
    fake.rejectRecipient('busy@example.test', '451 4.3.0 Try again later');
    await expectRetryable(sender(fake.url()).send(page({ to: 'busy@example.test' })), /EENVELOPE.*451/, [PASSWORD]);
  });

  it('when the password is wrong, then login fails, the error is retryable and the password does not leak', async () => {
    const wrong = 'wrong-smtp-password';
    await expectRetryable(sender(fake.url(USER, wrong)).send(page()), /EAUTH.*535/, [
      PASSWORD,
      wrong,
      Buffer.from(`\u0000${USER}\u0000${wrong}`).toString('base64'),
    ]);
    expect(fake.authFailures).toContain(USER);
  });

  it('when the relay cannot be reached, then the error is retryable', async () => {
    await expectRetryable(sender(`smtp://${USER}:${PASSWORD}@127.0.0.1:1`).send(page()), /ECONNECTION|ECONNREFUSED/, [PASSWORD]);
  });
});
