import { randomUUID } from 'node:crypto';
import type { ChannelSender } from '../../integrations/types';

/** Account emails (verification, password reset) go out through the email channel's sender. */
export interface AccountMailer {
  send(mail: { to: string; subject: string; text: string }): Promise<void>;
}

/** Wraps the email channel's sender (a provider, or the dev inbox when none is configured). */
export function accountMailer(email: ChannelSender): AccountMailer {
  return {
    async send(mail) {
      // Not a page: the id only lets providers that take a reference have one.
      await email.send({ notificationId: randomUUID(), channel: 'email', to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
