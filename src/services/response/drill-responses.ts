import { createHash } from 'node:crypto';
import { acknowledgeDrillResult } from '../drills';
import { verifyDrillAck } from './action-tokens';
import { ALREADY_HANDLED, once, type PageResponse, type PageResponseDeps } from './page-responses';

/**
 * Answers to drill pages (docs/drills.md): an SMS reply with the drill's code, key 1 on a drill
 * call, or a drill's link or push action marks that result acknowledged. Never an incident.
 */

/** Acknowledges a drill result once per callback key (a replayed callback does nothing more). */
export function respondToDrill(deps: PageResponseDeps, resultId: string, key: string): Promise<PageResponse> {
  return once(deps.orm, key, ALREADY_HANDLED, () => acknowledgeDrillResult(deps.orm, resultId));
}

/** A drill's signed link or push action, or null when the token is not a drill's (it may be a page's). */
export function respondToDrillToken(deps: PageResponseDeps, token: string): Promise<PageResponse> | null {
  const claim = verifyDrillAck(deps.linkSecret, token, Math.floor(Date.now() / 1000));
  if (!claim) return null;
  return respondToDrill(deps, claim.drillResultId, `drill-token:${createHash('sha256').update(token).digest('hex')}`);
}
