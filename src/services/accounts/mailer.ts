import { randomUUID } from 'node:crypto';

/** Account emails (verification, password reset) go out through the email channel's sender. */
export interface AccountMailer {
  send(mail: { to: string; subject: string; text: string }): Promise<void>;
}

/**
 * What the mailer needs of the email channel's sender (a ChannelSender of src/integrations/types.ts,
 * by its shape: the integration contract imports this module's type, so this one imports none back).
 */
export interface EmailSender {
  send(page: { notificationId: string; channel: 'email'; to: string; subject: string; text: string }): Promise<unknown>;
}

/** Wraps the email channel's sender (a provider, or the dev inbox when none is configured). */
export function accountMailer(email: EmailSender): AccountMailer {
  return {
    async send(mail) {
      // Not a page: the id only lets providers that take a reference have one.
      await email.send({ notificationId: randomUUID(), channel: 'email', to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
