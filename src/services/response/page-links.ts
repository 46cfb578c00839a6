import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import type { IncidentStatus } from '../../domain/incident-lifecycle';
import type { Severity } from '../../domain/severity';
import { verifyAction, verifyDrillAck, type PageAction } from './action-tokens';
import type { PageResponseDeps } from './page-responses';

/** An incident as an action link's page shows it (docs/action-page.md). */
export interface LinkedIncident {
  id: string;
  number: number;
  title: string;
  status: IncidentStatus;
  severity: Severity;
  service_name: string | null;
  created_at: Date;
}

/** What a page's signed link leads to: a page's incident and the action its button takes, or a drill's acknowledgement. */
export type PageLink = { kind: 'incident'; action: PageAction; incident: LinkedIncident } | { kind: 'drill' };

/** Longer than any token signAction makes (about 150 characters): refused unread. */
const MAX_TOKEN_LENGTH = 512;

/** An incident by id, with its service's name: what the link's page shows before and after the click. */
export async function linkedIncident(orm: MikroORM, incidentId: string): Promise<LinkedIncident | undefined> {
  const row = (await knexOf(orm)('incidents as i')
    .leftJoin('services as s', 's.id', 'i.service_id')
    .where({ 'i.id': incidentId })
    .first('i.id', 'i.number', 'i.title', 'i.status', 'i.severity', 's.name as service_name', 'i.created_at')) as LinkedIncident | undefined;
  return row && { ...row, created_at: new Date(row.created_at) };
}

/**
 * Reads a signed page link without acting (the GET that shows the button: mail scanners and
 * link previews fetch links): the incident and the action, or undefined for a forged, altered or
 * expired token or a page that is gone.
 */
export async function readPageLink(deps: Pick<PageResponseDeps, 'orm' | 'linkSecret'>, token: string): Promise<PageLink | undefined> {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const now = Math.floor(Date.now() / 1000);
  if (verifyDrillAck(deps.linkSecret, token, now)) return { kind: 'drill' };
  const claim = verifyAction(deps.linkSecret, token, now);
  if (!claim) return undefined;
  const page = (await knexOf(deps.orm)('notifications').where({ id: claim.notificationId }).first('incident_id')) as { incident_id: string } | undefined;
  const incident = page && (await linkedIncident(deps.orm, page.incident_id));
  return incident && { kind: 'incident', action: claim.action, incident };
}
