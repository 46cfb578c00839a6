/** Email pages over SMTP with `nodemailer`, used instead of SendGrid when SMTP_URL is set. */
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { PROVIDER_CALL_TIMEOUT_MS } from '../../domain/paging/attempt-timeouts';
import { describeError, notAcceptedFailure, permanentFailure, retryableFailure } from '../failures';
import type { ChannelProvider, ChannelSender, OutgoingPage, SentPage } from '../types';
import { emailFrom } from '../email/config';
import { smtpUrl } from './config';

/** The relay (smtp:// or smtps://, credentials in the URL) and the sender address. */
export interface SmtpConfig {
  url: string;
  from: string;
}

/**
 * A nodemailer SMTP transport whose stages each give up well within a send attempt (the send
 * activity's deadline bounds their sum).
 */
export function createSmtpTransport(config: SmtpConfig): Transporter<SMTPTransport.SentMessageInfo> {
  const half = PROVIDER_CALL_TIMEOUT_MS / 2;
  return nodemailer.createTransport({ url: config.url, connectionTimeout: half, greetingTimeout: half, socketTimeout: PROVIDER_CALL_TIMEOUT_MS });
}

/** The credentials of an SMTP URL, and their AUTH PLAIN form, so no error message can carry them. */
function urlSecrets(url: string): string[] {
  try {
    const { username, password } = new URL(url);
    const user = decodeURIComponent(username);
    const pass = decodeURIComponent(password);
    return pass ? [pass, password, Buffer.from(`\u0000${user}\u0000${pass}`).toString('base64')] : [];
  } catch {
    return [];
  }
}

/** The `email` sender over an SMTP relay. */
export function createSmtpSender(config: SmtpConfig, transport = createSmtpTransport(config)): ChannelSender {
  const secrets = urlSecrets(config.url);
  return {
    provider: 'smtp',
    async send(page: OutgoingPage): Promise<SentPage> {
      try {
        const info = await transport.sendMail({
          to: page.to,
          from: config.from,
          subject: page.subject,
          text: page.text,
          ...(page.html && { html: page.html }),
          headers: { 'X-Klaxon-Notification-Id': page.notificationId },
        });
        return { provider: 'smtp', providerMessageId: info.messageId ?? null };
      } catch (err) {
        throw toDeliveryError(page, err, secrets);
      }
    },
    close: async () => transport.close(),
  };
}

/** An SMTP URL without its credentials. */
const relayOf = (url: string) => {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
};

/** The registry's `smtp` provider: email once SMTP_URL is set (listed before SendGrid, so it wins). */
export const smtpProvider: ChannelProvider = (notify) => {
  const url = smtpUrl(notify);
  const from = emailFrom(notify);
  return url ? { description: `SMTP relay ${relayOf(url)}, from ${from}`, connect: () => ({ email: createSmtpSender({ url, from }) }) } : undefined;
};

function toDeliveryError(page: OutgoingPage, err: unknown, secrets: string[]): Error {
  const { code, responseCode } = err as { code?: string; responseCode?: number };
  // A 5xx to RCPT TO is the relay saying the mailbox does not exist or is refused for good.
  if (code === 'EENVELOPE' && typeof responseCode === 'number' && responseCode >= 500) {
    return permanentFailure('smtp', `email to ${page.to} refused: ${describeError(err)}`, secrets);
  }
  const detail = `email not sent${code ? ` (${code})` : ''}: ${describeError(err)}`;
  // The relay answered with an error: it did not take the message.
  return typeof responseCode === 'number' ? notAcceptedFailure('smtp', detail, secrets) : retryableFailure('smtp', detail, secrets);
}
