/**
 * The email channel, declared (pure): plain text and HTML with signed acknowledge/resolve links
 * (`/hooks/page/<token>`). Sent by SMTP when SMTP_URL is set, else SendGrid (the registry's order).
 */
import { emailAddress } from '../../domain/addresses';
import { emailBody, pageSubject } from '../../domain/paging/messages';
import type { ChannelDeclaration } from '../channel';
import { drillEmail } from './messages';

export const emailChannels = {
  email: {
    label: 'Email',
    bannerLabel: 'email',
    address: { label: 'Email address', placeholder: 'ann@example.com' },
    normalise: emailAddress,
    formB: { name: 'email', aliases: [], minSeverity: 'INFO' },
    quota: null,
    providers: ['smtp', 'sendgrid'],
    credentials: 'SENDGRID_API_KEY or SMTP_URL',
    replyCodes: false,
    render: (p) => {
      const body = emailBody(p.subject, {
        acknowledge: `${p.appUrl}/hooks/page/${p.sign('acknowledge')}`,
        resolve: `${p.appUrl}/hooks/page/${p.sign('resolve')}`,
      });
      return { subject: pageSubject(p.subject), text: body.text, html: body.html };
    },
    renderDrill: (d) => drillEmail(`${d.appUrl}/hooks/page/${d.ackToken}`),
    renderTest: (t) => ({ subject: t.message.subject, text: t.message.text, html: t.message.html }),
  },
} as const satisfies Record<string, ChannelDeclaration<'smtp' | 'sendgrid'>>;
