import type { PlannedTeam, PlannedUser } from '../../domain/importers/plan';
import { DomainError } from '../errors';
import { createInvitation, createTeamFor, getTeam, insertTeamMember, listInvitations, listMembers, renameTeam } from '../workspace';
import { fit, type ImportRun } from './run-context';

/** People and teams of an import (docs/importers.md, "Users" and "Teams"). */

/** The role an invited person gets: a new member's. */
export const INVITED_ROLE = 'MEMBER' as const;

/**
 * Matches people by email: a member is reused; anyone else is invited (once: a pending invitation
 * is left as it is). Invited people are not members until they accept, so later kinds leave them
 * out and say so.
 */
export async function applyUsers(run: ImportRun, users: PlannedUser[]): Promise<void> {
  const { orm } = run.deps;
  const members = new Map((await listMembers(orm, run.organizationId)).map((m) => [m.email.toLowerCase(), m.id]));
  const invitedEmails = new Set((await listInvitations(orm, run.organizationId)).map((i) => i.email.toLowerCase()));
  for (const u of users) {
    const memberId = members.get(u.email);
    if (memberId) {
      run.resolve('user', u.externalId, memberId, u.name);
      await run.remember('user', u.externalId, memberId);
      continue;
    }
    if (!invitedEmails.has(u.email)) {
      const invited = run.dryRun
        ? true
        : await run.attempt('user', u.externalId, u.name, () =>
            createInvitation(
              orm,
              run.deps.mailer,
              run.deps.appUrl,
              { organizationId: run.organizationId, ...run.actor },
              { email: u.email, role: INVITED_ROLE },
            ),
          );
      if (!invited) continue;
      invitedEmails.add(u.email);
      run.report.created.user++;
    }
    run.invited.set(u.externalId, u.email);
    run.report.mapping.push({ kind: 'user', external_id: u.externalId, id: null, name: u.name });
  }
}

/** Member ids of the planned people who are members; invited ones are named for the report. */
export function membersOf(run: ImportRun, externalIds: string[]): { ids: string[]; invited: string[] } {
  const ids: string[] = [];
  const invited: string[] = [];
  for (const ext of externalIds) {
    const id = run.ids.user.get(ext);
    if (id) ids.push(id);
    else if (run.invited.has(ext)) invited.push(run.invited.get(ext)!);
  }
  return { ids: [...new Set(ids)], invited };
}

async function currentTeam(run: ImportRun, id: string | undefined) {
  if (!id) return undefined;
  try {
    return await getTeam(run.deps.orm, run.organizationId, id);
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return undefined;
    throw err;
  }
}

/** Creates or renames each team and adds its members (an import adds people to a team; it never takes anyone out). */
export async function applyTeams(run: ImportRun, teams: PlannedTeam[]): Promise<void> {
  const actor = { organizationId: run.organizationId, audit: run.actor.audit };
  for (const t of teams) {
    const name = fit(t.name);
    const { ids, invited } = membersOf(run, t.members);
    if (invited.length)
      run.skip('team', t.externalId, t.name, `${invited.join(', ')} invited, not members yet: added to the team by an import after they accept`);
    const current = await currentTeam(run, run.mapped('team', t.externalId));
    await run.attempt('team', t.externalId, t.name, async () => {
      if (current) {
        const missing = ids.filter((id) => !current.members.some((m) => m.id === id));
        if (current.name === name && missing.length === 0) return run.resolve('team', t.externalId, current.id, name);
        if (!run.dryRun) {
          if (current.name !== name) await renameTeam(run.deps.orm, actor, current.id, name);
          await run.knex.transaction(async (trx) => {
            for (const id of missing) await insertTeamMember(trx, actor, current.id, id);
          });
        }
        run.report.updated.team++;
        return run.resolve('team', t.externalId, current.id, name);
      }
      if (run.dryRun) {
        run.report.created.team++;
        return run.resolve('team', t.externalId, run.pending('team', t.externalId), name);
      }
      const team = await createTeamFor(run.deps.orm, actor, name);
      await run.knex.transaction(async (trx) => {
        for (const id of ids) await insertTeamMember(trx, actor, team.id, id);
      });
      await run.remember('team', t.externalId, team.id);
      run.report.created.team++;
      run.resolve('team', t.externalId, team.id, name);
    });
  }
}
