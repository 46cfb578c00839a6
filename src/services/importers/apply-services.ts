import type { PlannedService, PlannedSource } from '../../domain/importers/plan';
import { recordAudit } from '../audit';
import { DomainError } from '../errors';
import { createSource, findSourceByRoutingKey, getLiveSource, setSourceRoutingKey, updateSourceFields } from '../ingest';
import { createService, getServiceDetail, updateService, type ServicePatch } from '../workspace';
import { fit, type ImportRun } from './run-context';

/** Services of an import with their policies, and their integrations as sources keeping their keys (docs/importers.md, "Services"). */

/** The workspace's first team: it owns services the source gave no team. */
async function firstTeam(run: ImportRun): Promise<string | undefined> {
  const row = await run
    .knex('teams')
    .select('id')
    .where({ organization_id: run.organizationId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first();
  return row?.id;
}

async function currentService(run: ImportRun, id: string | undefined) {
  if (!id) return undefined;
  try {
    return await getServiceDetail(run.deps.orm, run.organizationId, id);
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return undefined;
    throw err;
  }
}

export async function applyServices(run: ImportRun, services: PlannedService[]): Promise<void> {
  const fallback = await firstTeam(run);
  for (const s of services) {
    const name = fit(s.name);
    const teamId = s.team ? run.ids.team.get(s.team) : fallback;
    if (!teamId) {
      run.skip('service', s.externalId, s.name, s.team ? `its team ${s.team} was not brought in` : 'the workspace has no team to own it');
      continue;
    }
    const policyId = s.policy ? (run.ids.escalation_policy.get(s.policy) ?? null) : null;
    if (s.policy && !policyId)
      run.skip('service', s.externalId, s.name, `its escalation policy ${s.policy} was not brought in: it pages its owning team until it has one`);
    const current = await currentService(run, run.mapped('service', s.externalId));
    await run.attempt('service', s.externalId, s.name, async () => {
      if (current) {
        const patch: ServicePatch = {};
        if (current.name !== name) patch.name = name;
        if (current.description !== s.description) patch.description = s.description;
        if (current.owning_team_id !== teamId) patch.teamId = teamId;
        if (current.escalation_policy_id !== policyId) patch.escalationPolicyId = policyId;
        if (Object.keys(patch).length > 0) {
          if (!run.dryRun) await updateService(run.deps.orm, { organizationId: run.organizationId, id: current.id, patch }, run.actor.audit);
          run.report.updated.service++;
        }
        return run.resolve('service', s.externalId, current.id, name);
      }
      if (run.dryRun) {
        run.report.created.service++;
        return run.resolve('service', s.externalId, run.pending('service', s.externalId), name);
      }
      const created = await createService(
        run.deps.orm,
        { organizationId: run.organizationId, teamId, name, description: s.description, escalationPolicyId: policyId },
        run.actor.audit,
      );
      await run.remember('service', s.externalId, created.id);
      run.report.created.service++;
      run.resolve('service', s.externalId, created.id, name);
    });
  }
}

/** The sources module leaves auditing to its callers (as the dashboard's routes do). */
const audit = (run: ImportRun, action: string, id: string, details: Record<string, unknown>) =>
  recordAudit(run.deps.orm, {
    organizationId: run.organizationId,
    actor: run.actor.audit,
    action,
    targetType: 'source',
    targetId: id,
    details: { ...details, via: `import from ${run.system}` },
  });

/** Each integration becomes a source on its service, keeping its key as the routing key, so senders keep posting as they do. */
export async function applySources(run: ImportRun, sources: PlannedSource[]): Promise<void> {
  for (const src of sources) {
    const name = fit(src.name);
    const serviceId = run.ids.service.get(src.service);
    if (!serviceId) {
      run.skip('source', src.externalId, src.name, `its service ${src.service} was not brought in`);
      continue;
    }
    const mappedId = run.mapped('source', src.externalId);
    const current = mappedId ? await getLiveSource(run.deps.orm, run.organizationId, mappedId) : undefined;
    const holder = await findSourceByRoutingKey(run.deps.orm, src.routingKey);
    if (holder && holder.id !== current?.id) {
      run.skip('source', src.externalId, src.name, 'another Klaxon source already has its key as routing key');
      continue;
    }
    await run.attempt('source', src.externalId, src.name, async () => {
      if (current) {
        const changed = current.name !== name || current.routing_key !== src.routingKey;
        if (changed && !run.dryRun) {
          if (current.routing_key !== src.routingKey) await setSourceRoutingKey(run.deps.orm, current.id, src.routingKey);
          if (current.name !== name) await updateSourceFields(run.deps.orm, current.id, { name });
          await audit(run, 'source.update', current.id, { name, service_id: current.service_id, routing_key_changed: current.routing_key !== src.routingKey });
        }
        if (changed) run.report.updated.source++;
        return run.resolve('source', src.externalId, current.id, name);
      }
      if (run.dryRun) {
        run.report.created.source++;
        return run.resolve('source', src.externalId, run.pending('source', src.externalId), name);
      }
      const created = await createSource(run.deps.orm, {
        organizationId: run.organizationId,
        serviceId,
        name,
        ingestBaseUrl: run.deps.ingestBaseUrl,
        seal: run.deps.seal,
        routingKey: src.routingKey,
      });
      await audit(run, 'source.create', created.id, { name, service_id: serviceId });
      await run.remember('source', src.externalId, created.id);
      run.report.created.source++;
      run.resolve('source', src.externalId, created.id, name);
    });
  }
}
