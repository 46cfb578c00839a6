import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { DrillPerson, DrillTarget } from '../../domain/drills';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { notFound } from '../errors';
import { onCallUserIds } from '../paging/on-call';
import { pagingPeople } from '../paging/notification-rules';
import { teamMemberIds } from '../workspace/team-members';

/**
 * Who a drill pages, resolved like a policy step's target: a member; a team's members; who is on
 * call on a schedule now. A target that is not the workspace's is not found (404, naming `target.id`).
 */
export async function drillPeopleIds(orm: MikroORM, organizationId: string, target: DrillTarget, at: Date): Promise<string[]> {
  const k = knexOf(orm);
  const missing = () => notFound(`target.id: no such ${target.type} in this workspace`);
  if (!isUuid(target.id)) throw missing();
  switch (target.type) {
    case 'user': {
      const member = await k('memberships').where({ organization_id: organizationId, user_id: target.id }).first('user_id');
      if (!member) throw missing();
      return [target.id];
    }
    case 'team': {
      const team = await k('teams').where({ id: target.id, organization_id: organizationId }).first('id');
      if (!team) throw missing();
      return teamMemberIds(orm, target.id);
    }
    case 'schedule': {
      const schedule = await k('schedules').where({ id: target.id, organization_id: organizationId }).first('id');
      if (!schedule) throw missing();
      return onCallUserIds(orm, target.id, at);
    }
  }
}

/** The people as a drill plans them: names, their rules' contact methods, their usable contact methods. */
export async function drillPeople(k: Knex, organizationId: string, userIds: string[]): Promise<DrillPerson[]> {
  if (userIds.length === 0) return [];
  const { people } = await pagingPeople(k, userIds, organizationId);
  const names = new Map<string, string | null>(
    (await k('users').select('id', 'name').whereIn('id', userIds)).map((u: { id: string; name: string | null }) => [u.id, u.name]),
  );
  return people.map((p) => ({
    userId: p.userId,
    name: names.get(p.userId) || p.email,
    ruled: p.rules.map((r) => ({ contactMethodId: r.contactMethodId, channel: r.type, address: r.address })),
    contacts: p.contacts,
  }));
}
