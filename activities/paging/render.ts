import type { IncidentStatus } from '../../src/domain/incident-lifecycle';
import type { Severity } from '../../src/domain/severity';
import { emailBody, pageSubject, type PageSubject } from '../../src/domain/paging/messages';
import { smsText, voiceTwiml } from '../../src/integrations/twilio/messages';
import { signAction } from '../../src/services/response';
import { CHANNELS, type ChannelId } from '../../src/domain/channels';
import type { OutgoingPage } from '../../src/integrations/types';

/** Where people act on a page: the app's public URL and the key that signs links. */
export interface PageLinks {
  appUrl: string;
  secret: string;
  /** How long an email link or push action stays valid. */
  ttlSeconds: number;
}

interface IncidentRow {
  id: string;
  number: number;
  title: string;
  severity: string;
  service_name: string | null;
  status: string;
  organization_id: string;
}

/** Renders one page in its channel's format: texts, TwiML, signed links and push actions. */
export function renderPage(opts: {
  incident: IncidentRow;
  notificationId: string;
  channel: ChannelId;
  to: string;
  replyCode: number | null;
  links: PageLinks;
}): OutgoingPage {
  const { incident, notificationId, channel, to, links } = opts;
  const subject: PageSubject = {
    number: incident.number,
    title: incident.title,
    severity: incident.severity as Severity,
    serviceName: incident.service_name,
    url: `${links.appUrl}/incidents/${incident.id}`,
  };
  const expiresAt = Math.floor(Date.now() / 1000) + links.ttlSeconds;
  const action = (a: 'acknowledge' | 'resolve') => signAction(links.secret, { notificationId, action: a, expiresAt });
  const base = { notificationId, channel, to, subject: pageSubject(subject), statusCallbackUrl: `${links.appUrl}/hooks/twilio/status` };
  switch (CHANNELS[channel].format) {
    case 'text':
      return { ...base, text: smsText(subject, opts.replyCode ?? 0) };
    case 'call':
      return { ...base, text: pageSubject(subject), voiceTwiml: voiceTwiml(subject, `${links.appUrl}/hooks/twilio/voice?notification=${notificationId}`) };
    case 'email': {
      const body = emailBody(subject, {
        acknowledge: `${links.appUrl}/hooks/page/${action('acknowledge')}`,
        resolve: `${links.appUrl}/hooks/page/${action('resolve')}`,
      });
      return { ...base, text: body.text, html: body.html };
    }
    case 'push':
      return {
        ...base,
        text: `${incident.severity} incident #${incident.number}`,
        push: { category: 'KLAXON_INCIDENT', data: { incident_id: incident.id, acknowledge_token: action('acknowledge'), resolve_token: action('resolve') } },
      };
    case 'chat':
      // The Slack DM: the channel message's Block Kit with its buttons (src/integrations/slack/messages/blocks.ts).
      return {
        ...base,
        text: pageSubject(subject),
        slack: {
          organizationId: incident.organization_id,
          view: {
            id: incident.id,
            number: incident.number,
            title: incident.title,
            severity: incident.severity as Severity,
            status: incident.status as IncidentStatus,
            serviceName: incident.service_name,
            pagingNow: [],
            url: subject.url,
          },
        },
      };
  }
}
