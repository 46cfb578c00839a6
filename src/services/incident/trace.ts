import type { MikroORM } from '@mikro-orm/postgresql';
import { displayAddress } from '../../domain/channels';
import { knexOf } from '../../db/knex';
import { iso } from '../../db/timestamps';
import type { PageJson, TimelineEntryJson } from '../../domain/incident-trace';

/** What happened to an incident, for the people answering it: its timeline and every page sent. */

export type { PageJson, TimelineEntryJson } from '../../domain/incident-trace';

/** The whole timeline in order, with who acted, and every page sent (newest last), with delivery status. */
export async function incidentTrace(orm: MikroORM, incidentId: string): Promise<{ timeline: TimelineEntryJson[]; pages: PageJson[] }> {
  const db = knexOf(orm);
  const [entries, pages] = await Promise.all([
    db('timeline_entries as t')
      .leftJoin('users as u', 'u.id', 't.actor_id')
      .select('t.seq', 't.type', 't.created_at', 't.message', 't.from_status', 't.to_status', 't.actor_type', 't.actor_id', 't.via', 't.data', 'u.email')
      .where({ 't.incident_id': incidentId })
      .orderBy('t.seq'),
    db('notifications as n')
      .leftJoin('users as u', 'u.id', 'n.user_id')
      .select(
        'n.id',
        'n.created_at',
        'n.channel',
        'n.target',
        'n.user_id',
        'u.email',
        'n.status',
        'n.error',
        'n.fallback_reason',
        'n.escalation_step',
        'n.provider',
      )
      .where({ 'n.incident_id': incidentId })
      .orderBy([{ column: 'n.created_at' }, { column: 'n.id' }]),
  ]);
  return {
    timeline: entries.map((e) => ({
      seq: e.seq,
      type: e.type,
      at: iso(e.created_at),
      message: e.message,
      from_status: e.from_status,
      to_status: e.to_status,
      actor: { type: e.actor_type, id: e.actor_id, email: e.email ?? null, via: e.via },
      data: e.data,
    })),
    pages: pages.map((p) => ({
      id: p.id,
      at: iso(p.created_at),
      channel: p.channel,
      to: displayAddress(p.channel, p.target),
      user: p.user_id ? { id: p.user_id, email: p.email } : null,
      status: p.status,
      error: p.error,
      fallback_reason: p.fallback_reason,
      escalation_step: p.escalation_step,
      provider: p.provider,
    })),
  };
}
