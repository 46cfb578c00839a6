import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { SYSTEM_WATCHDOG } from '../audit';
import { insertDerivedSource, rederiveSourceSecret } from '../ingest/sources';
import { writeContactMethod } from '../paging/contacts';
import { insertService } from '../workspace/catalog';
import { insertTeam } from '../workspace/teams';
import { insertMemberWithoutSignIn, insertOrganization } from '../workspace/workspaces';
import { insertCanaryWorkspace, readCanaryWorkspace, type CanaryWorkspace } from './canary-state';

/** Where the canary's page is addressed: a reserved domain (RFC 2606), never delivered; the route pages nobody anyway. */
const CANARY_RECIPIENT = 'canary@watchdog.klaxon.invalid';

/**
 * The canary's own workspace (docs/reliability.md), set up once per installation, whichever API
 * process gets there first (an advisory lock): a workspace marked `canary` on an uncapped plan (no
 * quota counts its alerts), a team, a service with no policy (the owning team is paged), one
 * member who cannot sign in, with an email contact method, and a source whose URL secret every
 * process derives from KLAXON_SECRET. No customer is in it, so its incidents show in no
 * customer's lists, and the paging activity sends its pages to nobody.
 */
export async function ensureCanaryWorkspace(orm: MikroORM, sourceSecret: string): Promise<CanaryWorkspace> {
  return knexOf(orm).transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', ['klaxon-watchdog-canary']);
    const existing = await readCanaryWorkspace(trx);
    if (existing) {
      // KLAXON_SECRET rotated since: the source's URL follows it.
      await rederiveSourceSecret(trx, existing.sourceId, sourceSecret);
      return existing;
    }
    const org = await insertOrganization(trx, { name: 'Klaxon watchdog canary', plan: 'BUSINESS', canary: true });
    const actor = { organizationId: org.id, audit: SYSTEM_WATCHDOG };
    const team = await insertTeam(trx, actor, 'Canary');
    const service = await insertService(trx, { organizationId: org.id, teamId: team.id, name: 'Watchdog canary', escalationPolicyId: null });
    const person = await insertMemberWithoutSignIn(trx, { organizationId: org.id, email: CANARY_RECIPIENT, role: 'MEMBER', teamId: team.id });
    await writeContactMethod(
      trx,
      { organizationId: org.id, userId: person.id, email: person.email, type: 'email', address: person.email, label: 'watchdog canary' },
      { actor: SYSTEM_WATCHDOG },
    );
    const sourceId = await insertDerivedSource(trx, { organizationId: org.id, serviceId: service.id, name: 'Watchdog canary', secret: sourceSecret });
    const workspace = { organizationId: org.id, sourceId };
    await insertCanaryWorkspace(trx, workspace);
    return workspace;
  });
}
