import type { IncidentStatus } from '../../src/domain/incident-lifecycle';
import type { Severity } from '../../src/domain/severity';
import { type PageSubject } from '../../src/domain/paging/messages';
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

/** Renders one page as its channel's integration declares: texts, TwiML, signed links, push actions, chat blocks. */
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
  // The channel's integration renders it (src/integrations/<name>/channel.ts); the core fills in who and where.
  const rendered = CHANNELS[channel].render({
    notificationId,
    to,
    incident: {
      id: incident.id,
      number: incident.number,
      title: incident.title,
      severity: incident.severity as Severity,
      status: incident.status as IncidentStatus,
      serviceName: incident.service_name,
      organizationId: incident.organization_id,
    },
    subject,
    replyCode: opts.replyCode,
    appUrl: links.appUrl,
    sign: (action) => signAction(links.secret, { notificationId, action, expiresAt }),
    expiresAt,
  });
  return { ...rendered, notificationId, channel, to };
}
