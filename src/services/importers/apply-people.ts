import type { PlannedTeam, PlannedUser } from '../../domain/importers/plan';
import type { Plan } from '../../domain/plans';
import { NEVER_PAGED_ROLE, type Role } from '../../domain/roles';
import { accountStandings, provisionMember } from '../accounts/provision';
import { DomainError } from '../errors';
import { createInvitation, createTeamFor, getTeam, insertTeamMember, listInvitations, renameTeam } from '../workspace';
import { seatRefusal, seatState } from '../workspace/plan';
import { fit, type ImportRun } from './run-context';

/** People and teams of an import (docs/importers.md, "People" and "Teams"). */

/** Seats of the plan a run may still fill (null: no limit), counted as the real run's checks count them. */
class Seats {
  constructor(private readonly state: { plan: Plan; limit: number | null; members: number; pending: number }) {}
  /** Why one more does not fit, or null; a dry run takes the seat as the real run would. */
  take(kind: 'member' | 'invitation'): string | null {
    const { limit } = this.state;
    if (limit !== null && this.state.members + this.state.pending >= limit) return seatRefusal(this.state.plan, limit, this.state);
    if (kind === 'member') this.state.members++;
    else this.state.pending++;
    return null;
  }
}

const planLimit = (why: string) => `Klaxon refused it: ${why}`;

/** An address with an account outside the workspace: invited with its role, never adopted (once: a pending invitation stays). */
async function inviteOutsider(run: ImportRun, u: PlannedUser, pending: Set<string>, seats: Seats): Promise<void> {
  const why = `${u.email} already has a Klaxon account outside this workspace, so the import does not take it over: invited as ${u.role}; they join rotations, overrides and steps once they accept and the import runs again`;
  if (!pending.has(u.email)) {
    if (run.dryRun) {
      const full = seats.take('invitation');
      if (full) return run.skip('user', u.externalId, u.name, planLimit(full));
    } else {
      const sent = await run.attempt('user', u.externalId, u.name, () =>
        createInvitation(
          run.deps.orm,
          run.deps.mailer,
          run.deps.appUrl,
          { organizationId: run.organizationId, ...run.actor },
          { email: u.email, role: u.role },
        ),
      );
      if (!sent) return;
    }
    pending.add(u.email);
  }
  run.skip('user', u.externalId, u.name, why);
  run.leftOut.set(u.externalId, { email: u.email, why: `${u.email} is invited (an account outside this workspace) and not a member yet`, invited: true });
  run.report.mapping.push({ kind: 'user', external_id: u.externalId, id: null, name: u.name });
}

/** A member from now on: resolvable by later kinds, unless their role is never paged. */
function member(run: ImportRun, u: PlannedUser, id: string, role: Role): void {
  run.resolve('user', u.externalId, id, u.name);
  if (role === NEVER_PAGED_ROLE) run.leftOut.set(u.externalId, { email: u.email, why: `${u.email} is a Stakeholder, who is never paged`, invited: false });
}

/**
 * People are members at once: matched by email to a member (who keeps their role), else
 * provisioned as SCIM provisions (src/services/accounts/provision.ts) with the role the source
 * gave them. An address with an account outside the workspace is invited instead, and reported.
 */
export async function applyUsers(run: ImportRun, users: PlannedUser[]): Promise<void> {
  const { orm } = run.deps;
  const knex = run.knex;
  const standings = await accountStandings(
    knex,
    run.organizationId,
    users.map((u) => u.email),
  );
  const pending = new Set((await listInvitations(orm, run.organizationId)).map((i) => i.email.toLowerCase()));
  const seats = new Seats(await seatState(knex, run.organizationId));
  for (const u of users) {
    const standing = standings.get(u.email)!;
    if (standing.kind === 'member') {
      member(run, u, standing.userId, standing.role);
      await run.remember('user', u.externalId, standing.userId);
      continue;
    }
    if (standing.kind === 'outside') {
      await inviteOutsider(run, u, pending, seats);
      continue;
    }
    if (run.dryRun) {
      const full = seats.take('member');
      if (full) {
        run.skip('user', u.externalId, u.name, planLimit(full));
        continue;
      }
      run.report.created.user++;
      member(run, u, run.pending('user', u.externalId), u.role);
      continue;
    }
    const done = await run.attempt('user', u.externalId, u.name, () =>
      provisionMember(orm, run.deps.mailer, run.deps.appUrl, {
        organizationId: run.organizationId,
        email: u.email,
        name: u.name,
        role: u.role,
        actor: run.actor.audit,
        from: run.systemLabel,
      }),
    );
    if (!done) continue;
    if (done.kind === 'outside') {
      // An account appeared for the address since the read (a sign-up): it is invited, never adopted.
      await inviteOutsider(run, u, pending, seats);
      continue;
    }
    if (done.kind === 'provisioned') {
      run.report.created.user++;
      if (!done.welcome.sent) run.skip('user', u.externalId, u.name, `a member now, but the welcome email could not be sent (${done.welcome.error})`);
    }
    member(run, u, done.userId, done.kind === 'member' ? done.role : u.role);
    await run.remember('user', u.externalId, done.userId);
  }
}

/** Member ids of the planned people who can be paged; the others are named with why they are left out. */
export function membersOf(
  run: ImportRun,
  externalIds: string[],
  opts: { stakeholders?: boolean } = {},
): { ids: string[]; leftOut: string[]; invited: string[] } {
  const ids: string[] = [];
  const leftOut: string[] = [];
  const invited: string[] = [];
  for (const ext of externalIds) {
    const out = run.leftOut.get(ext);
    const id = run.ids.user.get(ext);
    if (out && (out.invited || !opts.stakeholders)) {
      leftOut.push(out.why);
      if (out.invited) invited.push(out.email);
    } else if (id) ids.push(id);
  }
  return { ids: [...new Set(ids)], leftOut: [...new Set(leftOut)], invited: [...new Set(invited)] };
}

/** Records where invited people are missing, for readiness (src/services/importers/left-out.ts writes it). */
export function noteLeftOut(run: ImportRun, externalIds: string[], where: { schedule?: string; policy?: string; place: string }): void {
  for (const ext of new Set(externalIds)) {
    const out = run.leftOut.get(ext);
    if (out?.invited) run.leftOutPlaces.push({ externalId: ext, email: out.email, ...where });
  }
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
    // Stakeholders belong to teams (they read its incidents); the team's pages leave them out.
    const { ids, invited } = membersOf(run, t.members, { stakeholders: true });
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
