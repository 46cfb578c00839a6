import { createHash } from 'node:crypto';
import { knexOf } from '../../db/knex';
import { decideTransition, type IncidentStatus } from '../../domain/incident-lifecycle';
import { verifyIncidentAction, type IncidentActionClaim, type PageAction } from './action-tokens';
import { act, once, type PageResponse, type PageResponseDeps, type PageRow } from './page-responses';
import { releaseActionNonce, useActionNonce } from './action-nonces';

/** An incident action link as its confirm page shows it. */
export interface IncidentLink {
  claim: IncidentActionClaim;
  incident: { id: string; organization_id: string; number: number; title: string; status: string };
}

/** What acting on a link did: `invalid` for a forged, altered or expired token (or a deleted incident); `used` for a one-use token used before. */
export type IncidentLinkAnswer = PageResponse & { invalid: boolean; used?: boolean };

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
 * An incident-scoped action link (a chat message's button): acts once per token, as the system
 * `via` the link's origin (an unauthenticated link names no member). A one-use token (with a
 * nonce) records its use in `chat_action_nonces` until it expires; one signed before nonces
 * existed is held once by its hash. A second use, or a move the incident is past (already
 * acknowledged or resolved), changes nothing.
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
  const used = { done: false, message: `This link was already used; incident #${incident.number} was ${PAST[claim.action]} with it.` };
  if (claim.nonce) {
    const nonce = claim.nonce;
    if (!(await useActionNonce(deps.orm, { nonce, incidentId: incident.id, expiresAt: claim.expiresAt }))) return { ...used, invalid: false, used: true };
    try {
      return { ...(await act(deps, page, claim.action, via)), invalid: false };
    } catch (err) {
      await releaseActionNonce(deps.orm, nonce).catch(() => undefined);
      throw err;
    }
  }
  const key = `incident-token:${createHash('sha256').update(token).digest('hex')}`;
  let first = true;
  const answer = await once(deps.orm, key, used, () => {
    first = false;
    return act(deps, page, claim.action, via);
  });
  return { ...answer, invalid: false, ...(first ? { used: true } : {}) };
}
