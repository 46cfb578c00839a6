import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { Actor } from '../../contracts/workflows';
import type { LifecycleOperation } from '../../domain/incident-lifecycle';
import { knexOf } from '../../db/knex';
import { DomainError } from '../errors';
import { verifyAction, type PageAction } from './action-tokens';
import { transitionIncident } from '../incident/incidents';
import { respondToDrillToken } from './drill-responses';

export interface PageResponseDeps {
  orm: MikroORM;
  temporal: Client;
  taskQueue: string;
  /** AUTO_CLOSE_HOURS, for an incident workflow an answer starts (a reopen after close). */
  autoCloseHours?: number;
  /** Signs email links and push actions. */
  linkSecret: string;
}

/** What a responder's answer did, in words for the reply SMS, the call or the page. */
export interface PageResponse {
  done: boolean;
  message: string;
}

/** The page a response answers, with its incident's number for the reply. */
export interface PageRow {
  id: string;
  incident_id: string;
  organization_id: string;
  user_id: string | null;
  number: number;
}

export const ALREADY_HANDLED: PageResponse = { done: false, message: 'Already handled.' };

const PAST: Record<PageAction, string> = { acknowledge: 'acknowledged', resolve: 'resolved' };

/**
 * Records a callback key once: false when it was seen before (a replayed request acts no more).
 * Inserted before acting: a crash in between loses the action, and the responder can answer again.
 */
async function firstTime(orm: MikroORM, key: string): Promise<boolean> {
  const rows = await knexOf(orm)('provider_callbacks').insert({ key, received_at: new Date() }).onConflict('key').ignore().returning('key');
  return rows.length > 0;
}

/**
 * Acts once per callback key. A failed act (Temporal or Postgres away: the caller answers 503)
 * frees the key again, so the responder, or the provider's retry, can try once more.
 */
export async function once(orm: MikroORM, key: string, seen: PageResponse, run: () => Promise<PageResponse>): Promise<PageResponse> {
  if (!(await firstTime(orm, key))) return seen;
  try {
    return await run();
  } catch (err) {
    await knexOf(orm)('provider_callbacks')
      .where({ key })
      .delete()
      .catch(() => undefined);
    throw err;
  }
}

/** Acknowledges or resolves the page's incident as the person paged, answering in words. */
export async function act(deps: PageResponseDeps, page: PageRow, action: LifecycleOperation, via: string): Promise<PageResponse> {
  const actor: Actor = { type: page.user_id ? 'user' : 'system', id: page.user_id, via };
  try {
    const snapshot = await transitionIncident(deps, { organizationId: page.organization_id, incidentId: page.incident_id, operation: action, actor });
    return { done: true, message: `Incident #${page.number} is ${snapshot.status.toLowerCase()}.` };
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'conflict') return { done: false, message: `Incident #${page.number}: ${err.message}.` };
    throw err;
  }
}

/** Pages with their incident's number: what every kind of answer looks its page up in. */
export const pageQuery = (orm: MikroORM) =>
  knexOf(orm)('notifications as n')
    .join('incidents as i', 'i.id', 'n.incident_id')
    .select('n.id', 'n.incident_id', 'n.organization_id', 'n.user_id', 'i.number');

/** A signed email link or push action: acts once, as the person it was sent to (a drill's marks the drill acknowledged); names the incident it was about. */
export async function respondByToken(deps: PageResponseDeps, token: string, via: string): Promise<PageResponse & { incidentId?: string }> {
  const drill = respondToDrillToken(deps, token);
  if (drill) return drill;
  const claim = verifyAction(deps.linkSecret, token, Math.floor(Date.now() / 1000));
  if (!claim) return { done: false, message: 'This link is not valid or has expired.' };
  const page: PageRow | undefined = await pageQuery(deps.orm).where({ 'n.id': claim.notificationId }).first();
  if (!page) return { done: false, message: 'This link is not valid or has expired.' };
  const key = `token:${createHash('sha256').update(token).digest('hex')}`;
  const answer = await once(
    deps.orm,
    key,
    { done: false, message: `This link was already used; incident #${page.number} was ${PAST[claim.action]} with it.` },
    () => act(deps, page, claim.action, via),
  );
  return { ...answer, incidentId: page.incident_id };
}
