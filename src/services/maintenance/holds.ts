import type { Knex } from '@mikro-orm/postgresql';
import { holdAt, type MaintenanceHold } from '../../domain/maintenance';

/**
 * What paging reads of maintenance windows (docs/maintenance-windows.md): whether a service is
 * held at an instant (the escalation's plan asks), and whether incidents' paging is held now
 * (the incident JSON says).
 */

/** The hold of a service at `at`: the covering window that lasts longest, or null. */
export async function serviceHold(k: Knex, serviceId: string | null, at: Date): Promise<MaintenanceHold | null> {
  if (!serviceId) return null;
  const rows: Array<{ id: string; reason: string; starts_at: Date; ends_at: Date }> = await k('maintenance_windows')
    .select('id', 'reason', 'starts_at', 'ends_at')
    .whereRaw('service_ids @> array[?]::uuid[]', [serviceId])
    .andWhere('starts_at', '<=', at)
    .andWhere('ends_at', '>', at);
  return holdAt(
    rows.map((r) => ({ id: r.id, reason: r.reason, startsAt: new Date(r.starts_at), endsAt: new Date(r.ends_at) })),
    at,
  );
}

/** What an incident's JSON says of its paging: held by a maintenance window, and until when. */
export interface PagingHeld {
  paging_held: boolean;
  paging_held_until: string | null;
}

const NOT_HELD: PagingHeld = { paging_held: false, paging_held_until: null };

/**
 * Whether each incident's paging is held now: TRIGGERED, and its escalation's latest decision
 * is a maintenance hold that has not run out. Read from the timeline, so it says what the
 * workflow decided (an incident already paging when a window began is not held).
 */
export async function pagingHeldOf(k: Knex, incidents: ReadonlyArray<{ id: string; status: string }>, now = new Date()): Promise<Map<string, PagingHeld>> {
  const out = new Map<string, PagingHeld>();
  const triggered = incidents.filter((i) => i.status === 'TRIGGERED').map((i) => i.id);
  if (triggered.length > 0) {
    const { rows } = (await k.raw(
      `select distinct on (incident_id) incident_id, data
         from timeline_entries
        where incident_id = any(?::uuid[]) and type = 'paging_decision'
        order by incident_id, seq desc`,
      [`{${triggered.join(',')}}`],
    )) as { rows: Array<{ incident_id: string; data: { kind?: string; until?: string } | null }> };
    for (const r of rows) {
      const until = r.data?.kind === 'maintenance_window' && r.data.until ? new Date(r.data.until) : null;
      if (until && until > now) out.set(r.incident_id, { paging_held: true, paging_held_until: until.toISOString() });
    }
  }
  return new Map(incidents.map((i) => [i.id, out.get(i.id) ?? NOT_HELD]));
}

/** The incidents with what their JSON says of held paging, in one read. */
export async function withPagingHeld<T extends { id: string; status: string }>(k: Knex, incidents: T[], now = new Date()): Promise<Array<T & PagingHeld>> {
  const held = await pagingHeldOf(k, incidents, now);
  return incidents.map((i) => ({ ...i, ...held.get(i.id)! }));
}
