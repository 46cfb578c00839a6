import { createHash } from 'node:crypto';
import { knexOf } from '../../db/knex';
import { decideTransition, type IncidentStatus } from '../../domain/incident-lifecycle';
import { verifyIncidentAction, type IncidentActionClaim, type PageAction } from './action-tokens';
import { act, once, type PageResponse, type PageResponseDeps, type PageRow } from './page-responses';

/** An incident action link as its confirm page shows it. */
export interface IncidentLink {
  claim: IncidentActionClaim;
  incident: { id: string; organization_id: string; number: number; title: string; status: string };
}

/** What acting on a link did: `invalid` for a forged, altered or expired token (or a deleted incident). */
export type IncidentLinkAnswer = PageResponse & { invalid: boolean };

/** Longer than any token signIncidentAction makes (about 150 characters): refused unread. */
const MAX_TOKEN_LENGTH = 512;

const PAST: Record<PageAction, string> = { acknowledge: 'acknowledged', resolve: 'resolved' };
const INVALID: IncidentLinkAnswer = { done: false, invalid: true, message: 'This link is not valid or has expired.' };

/** The link's claim and incident, reading only (the GET that shows the confirm button); undefined when invalid. */
export async function readIncidentLink(deps: Pick<PageResponseDeps, 'orm' | 'linkSecret'>, token: string): Promise<IncidentLink | undefined> {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const claim = verifyIncidentAction(deps.linkSecret, token, Math.floor(Date.now() / 1000));
  if (!claim) return undefined;
  const incident = await knexOf(deps.orm)('incidents').where({ id: claim.incidentId }).first('id', 'organization_id', 'number', 'title', 'status');
  return incident ? { claim, incident } : undefined;
}

/**
 * An incident-scoped action link (a Microsoft Teams card's button): acts once per token, as the
 * system `via` the link's origin (an unauthenticated link names no member). A second use, or a
 * move the incident is past (already acknowledged or resolved), changes nothing.
 */
export async function respondByIncidentToken(deps: PageResponseDeps, token: string, via: string): Promise<IncidentLinkAnswer> {
  const link = await readIncidentLink(deps, token);
  if (!link) return INVALID;
  const { claim, incident } = link;
  // A move the incident is past (acknowledging or resolving a resolved incident) would be answered
  // as success by the workflow: here it changed nothing, and says so.
  if (decideTransition(incident.status as IncidentStatus, claim.action).kind !== 'move') {
    return { done: false, invalid: false, message: `Incident #${incident.number} is already ${incident.status.toLowerCase()}.` };
  }
  const page: PageRow = { id: claim.incidentId, incident_id: incident.id, organization_id: incident.organization_id, user_id: null, number: incident.number };
  const key = `incident-token:${createHash('sha256').update(token).digest('hex')}`;
  const used = { done: false, message: `This link was already used; incident #${incident.number} was ${PAST[claim.action]} with it.` };
  const answer = await once(deps.orm, key, used, () => act(deps, page, claim.action, via));
  return { ...answer, invalid: false };
}
