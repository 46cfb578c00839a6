/**
 * At most WHAT_IF_BOUNDS.runsPerWorkspace what-if replays of a workspace at once, across every API
 * process (docs/what-if.md, "Bounds"): the one writer of `what_if_runs`. A run takes a row under
 * the workspace's lock and deletes it when it ends; a row whose process died stops counting at
 * `expires_at`, far beyond any bounded replay.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';

export const WHAT_IF_SLOTS = {
  runsPerWorkspace: 2,
  /** How long a row counts if its process never deletes it. */
  expiresAfterSeconds: 300,
  /** What a refused caller is told to wait: a bounded replay takes seconds. */
  retryAfterSeconds: 5,
} as const;

/** Refused: the workspace already runs its replays; retry after `retryAfterSeconds`. */
export class WhatIfBusy extends Error {
  readonly retryAfterSeconds = WHAT_IF_SLOTS.retryAfterSeconds;
  constructor() {
    super(`this workspace already runs ${WHAT_IF_SLOTS.runsPerWorkspace} simulations; retry in ${WHAT_IF_SLOTS.retryAfterSeconds} s`);
    this.name = 'WhatIfBusy';
  }
}

/** Runs `replay` holding one of the workspace's slots, or throws WhatIfBusy when both are taken. */
export async function withWhatIfSlot<T>(orm: MikroORM, organizationId: string, replay: () => Promise<T>): Promise<T> {
  const k = knexOf(orm);
  const id = randomUUID();
  await k.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`what-if:${organizationId}`]);
    const now = new Date();
    await trx('what_if_runs').where({ organization_id: organizationId }).andWhere('expires_at', '<=', now).delete();
    const [{ n }] = await trx('what_if_runs').where({ organization_id: organizationId }).count({ n: '*' });
    if (Number(n) >= WHAT_IF_SLOTS.runsPerWorkspace) throw new WhatIfBusy();
    await trx('what_if_runs').insert({
      id,
      organization_id: organizationId,
      started_at: now,
      expires_at: new Date(now.getTime() + WHAT_IF_SLOTS.expiresAfterSeconds * 1000),
    });
  });
  try {
    return await replay();
  } finally {
    await k('what_if_runs').where({ id }).delete();
  }
}
