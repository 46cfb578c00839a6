import { randomUUID } from 'node:crypto';
import { isPending, type ImportRun } from './run-context';

/**
 * The one writer of `import_left_out` (docs/importers.md, "People"): after a real run, the places
 * (rotations, overrides, escalation steps) each invited person was left out of, replacing what the
 * last run of this system wrote. Readiness reads it (src/services/paging/readiness.ts) and shows
 * the gap while the person is not a member. Unchanged places are left as they are, so a re-run of
 * an unchanged account writes nothing here.
 */
export async function saveLeftOutPlaces(run: ImportRun): Promise<void> {
  const idOf = (kind: 'schedule' | 'escalation_policy', ext: string | undefined) => {
    const id = ext ? run.ids[kind].get(ext) : undefined;
    return id && !isPending(id) ? id : null;
  };
  const wanted = run.leftOutPlaces.map((p) => ({
    external_id: p.externalId,
    email: p.email,
    schedule_id: idOf('schedule', p.schedule),
    policy_id: idOf('escalation_policy', p.policy),
    place: p.place.slice(0, 600),
  }));
  const key = (r: (typeof wanted)[number]) => JSON.stringify([r.external_id, r.email, r.schedule_id, r.policy_id, r.place]);
  const scope = { organization_id: run.organizationId, system: run.system };
  await run.knex.transaction(async (trx) => {
    const stored: Array<(typeof wanted)[number] & { id: string }> = await trx('import_left_out')
      .select('id', 'external_id', 'email', 'schedule_id', 'policy_id', 'place')
      .where(scope);
    const keep = new Set(wanted.map(key));
    const have = new Set(stored.map(key));
    const gone = stored.filter((r) => !keep.has(key(r))).map((r) => r.id);
    if (gone.length) await trx('import_left_out').whereIn('id', gone).delete();
    const added = [...new Map(wanted.filter((r) => !have.has(key(r))).map((r) => [key(r), r])).values()];
    if (added.length) await trx('import_left_out').insert(added.map((r) => ({ id: randomUUID(), ...scope, ...r, created_at: new Date() })));
  });
}
