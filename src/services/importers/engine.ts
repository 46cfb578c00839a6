import type { Knex } from '@mikro-orm/postgresql';
import type { ImportPlan, ImportReport, ImportSystem } from '../../domain/importers/plan';
import { knexOf } from '../../db/knex';
import { recordAudit } from '../audit';
import { conflict } from '../errors';
import { getOrganization } from '../workspace/workspaces';
import { applyContactMethods, applyNotificationRules } from './apply-contacts';
import { applyUsers, applyTeams } from './apply-people';
import { saveLeftOutPlaces } from './left-out';
import { applySchedules } from './apply-schedules';
import { applyPolicies } from './apply-escalation';
import { applyServices, applySources } from './apply-services';
import { loadMappings } from './mappings';
import { ImportRun, type ImportActor, type ImportDeps } from './run-context';

/**
 * Applies an import plan to a workspace through the existing services, kind by kind in the order
 * later kinds refer to earlier ones (people, their contact methods and rules, teams, schedules,
 * policies, services, sources), and
 * reports it (docs/importers.md). Idempotent: what an earlier import made (import_mappings) is
 * updated only where it differs, and nothing is made twice. A dry run reads and compares only.
 */

export interface ImportRequest {
  organizationId: string;
  system: ImportSystem;
  /** The system as people name it (the registry importer's label, "PagerDuty"); unset, its key. */
  label?: string;
  dryRun: boolean;
  actor: ImportActor;
}

/** One import per workspace at a time, across processes: a second is refused while the first runs. */
async function withImportLock<T>(knex: Knex, organizationId: string, work: () => Promise<T>): Promise<T> {
  return knex.transaction(async (trx) => {
    const { rows } = (await trx.raw('select pg_try_advisory_xact_lock(hashtext(?)) as ok', [`klaxon-import:${organizationId}`])) as {
      rows: Array<{ ok: boolean }>;
    };
    if (!rows[0]?.ok) throw conflict('an import into this workspace is already running: wait for it to finish', 'import_running');
    return work();
  });
}

export async function applyImportPlan(deps: ImportDeps, req: ImportRequest, plan: ImportPlan): Promise<ImportReport> {
  await getOrganization(deps.orm, req.organizationId);
  const knex = knexOf(deps.orm);
  return withImportLock(knex, req.organizationId, async () => {
    const run = new ImportRun(
      deps,
      knex,
      req.organizationId,
      req.system,
      req.label ?? req.system,
      req.dryRun,
      req.actor,
      await loadMappings(knex, req.organizationId, req.system),
    );
    run.report.skipped.push(...plan.skipped);
    await applyUsers(run, plan.users);
    await applyContactMethods(run, plan.contactMethods, plan.users);
    await applyNotificationRules(run, plan.notificationRules, plan.users);
    await applyTeams(run, plan.teams);
    await applySchedules(run, plan.schedules);
    await applyPolicies(run, plan.policies);
    await applyServices(run, plan.services);
    await applySources(run, plan.sources);
    if (!req.dryRun) {
      await saveLeftOutPlaces(run);
      await recordAudit(deps.orm, {
        organizationId: req.organizationId,
        actor: req.actor.audit,
        action: 'import.run',
        targetType: 'organization',
        targetId: req.organizationId,
        details: { system: req.system, created: run.report.created, updated: run.report.updated, skipped: run.report.skipped.length },
      });
    }
    return run.report;
  });
}
