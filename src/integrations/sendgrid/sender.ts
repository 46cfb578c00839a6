/** Email pages through `@sendgrid/mail` (docs/architecture.md, "Integrations"). */
import { Client } from '@sendgrid/client';
import { MailService } from '@sendgrid/mail';
import { PROVIDER_CALL_TIMEOUT_MS } from '../../domain/paging/attempt-timeouts';
import { describeError, notAcceptedFailure, permanentFailure, retryableFailure } from '../failures';
import type { ChannelProvider, ChannelSender, OutgoingPage, SentPage } from '../types';
import { emailFrom } from '../email/config';
import { sendgridSettings } from './config';

/** What the SendGrid sender needs: the API key, the sender address, and optionally another API origin. */
export interface SendgridConfig {
  apiKey: string;
  from: string;
  apiBaseUrl?: string;
}

/** A mail service with its own client (not the SDK's global one), pointed at SENDGRID_API_BASE_URL when set. */
export function createSendgridMail(config: SendgridConfig): MailService {
  const client = new Client();
  client.setApiKey(config.apiKey);
  // setApiKey resets the base URL to the key's region, so the override comes after it.
  if (config.apiBaseUrl) client.setDefaultRequest('baseUrl', `${config.apiBaseUrl}/`);
  const mail = new MailService();
  mail.setClient(client);
  mail.setTimeout(PROVIDER_CALL_TIMEOUT_MS);
  return mail;
}

/** The `email` sender over SendGrid's v3 mail/send. */
export function createSendgridSender(config: SendgridConfig, mail: MailService = createSendgridMail(config)): ChannelSender {
  const secrets = [config.apiKey];
  return {
    provider: 'sendgrid',
    async send(page: OutgoingPage): Promise<SentPage> {
      try {
        const [response] = await mail.send({
          to: page.to,
          from: config.from,
          subject: page.subject,
          text: page.text,
          ...(page.html && { html: page.html }),
          // Comes back on SendGrid's event webhook, tying delivery events to the notification.
          customArgs: { notification_id: page.notificationId },
        });
        const id = response.headers['x-message-id'];
        return { provider: 'sendgrid', providerMessageId: typeof id === 'string' ? id : null };
      } catch (err) {
        throw toDeliveryError(page, err, secrets);
      }
    },
  };
}

/** The registry's `sendgrid` provider: email once SENDGRID_API_KEY is set. */
export const sendgridProvider: ChannelProvider = (notify) => {
  const config = sendgridSettings(notify);
  const from = emailFrom(notify);
  return (
    config && {
      description: `SendGrid, from ${from}${config.apiBaseUrl ? ` via ${config.apiBaseUrl}` : ''}`,
      connect: () => ({ email: createSendgridSender({ ...config, from }) }),
    }
  );
};

function toDeliveryError(page: OutgoingPage, err: unknown, secrets: string[]): Error {
  const status = (err as { code?: unknown }).code;
  const body = (err as { response?: { body?: { errors?: Array<{ message?: string; field?: string | null }> } } }).response?.body;
  if (typeof status !== 'number') return retryableFailure('sendgrid', `email not sent: ${describeError(err)}`, secrets);
  const reasons = (body?.errors ?? [])
    .map((e) => (e.field ? `${e.message} (${e.field})` : e.message))
    .filter(Boolean)
    .join('; ');
  // A 400 is about the message itself (most often the address): sending it again cannot succeed.
  if (status === 400) return permanentFailure('sendgrid', `email to ${page.to} refused: ${reasons || 'bad request'} (HTTP 400)`, secrets);
  return notAcceptedFailure('sendgrid', `email not accepted: HTTP ${status}${reasons ? `: ${reasons}` : ''}`, secrets);
}
