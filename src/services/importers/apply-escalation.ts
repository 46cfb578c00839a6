import type { PlannedPolicy } from '../../domain/importers/plan';
import { canonicalJson } from '../../domain/ingest/canonical-json';
import { DomainError } from '../errors';
import { createEscalationPolicy, getEscalationPolicy, updateEscalationPolicy } from '../paging';
import { membersOf, noteLeftOut } from './apply-people';
import { fit, type ImportRun } from './run-context';

/** Escalation policies of an import: steps with delays, targets by their Klaxon ids, repeats (docs/importers.md, "Escalation policies"). */

type Step = { delay_seconds: number; targets: Array<{ type: 'user' | 'schedule' | 'team'; id: string }> };

/** Steps with Klaxon ids; a target not brought in is left out and reported, and a step left empty gives its wait to the step before. */
function stepsOf(run: ImportRun, p: PlannedPolicy): Step[] {
  const steps: Step[] = [];
  p.steps.forEach((step, i) => {
    const where = { external: `${p.externalId}/steps/${i + 1}`, name: `${p.name} / step ${i + 1}` };
    const targets = step.targets.flatMap((t): Step['targets'] => {
      if (t.type === 'user') {
        const { ids, leftOut } = membersOf(run, [t.externalId]);
        if (ids[0]) return [{ type: t.type, id: ids[0] }];
        if (leftOut.length) {
          run.skip('escalation_policy', where.external, where.name, `left out of the step: ${leftOut[0]}`);
          noteLeftOut(run, [t.externalId], { policy: p.externalId, place: `step ${i + 1} of "${p.name}"` });
          return [];
        }
      } else {
        const id = run.ids[t.type].get(t.externalId);
        if (id) return [{ type: t.type, id }];
      }
      run.skip('escalation_policy', where.external, where.name, `its ${t.type} ${t.externalId} was not brought in (see that ${t.type}'s own entry)`);
      return [];
    });
    if (targets.length > 0) {
      steps.push({ delay_seconds: step.delaySeconds, targets });
      return;
    }
    run.skip('escalation_policy', where.external, where.name, 'none of its targets is in Klaxon: the step is left out');
    // Later steps keep their timing: the step before waits this one's delay too.
    const before = steps.at(-1);
    if (before) before.delay_seconds = Math.min(before.delay_seconds + step.delaySeconds, 86_400);
  });
  return steps;
}

async function currentPolicy(run: ImportRun, id: string | undefined) {
  if (!id) return undefined;
  try {
    return await getEscalationPolicy(run.deps.orm, id, run.organizationId);
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return undefined;
    throw err;
  }
}

export async function applyPolicies(run: ImportRun, policies: PlannedPolicy[]): Promise<void> {
  const opts = { actor: run.actor.audit };
  for (const p of policies) {
    const name = fit(p.name);
    const steps = stepsOf(run, p);
    if (steps.length === 0) {
      run.skip('escalation_policy', p.externalId, p.name, 'none of its steps has a target in Klaxon yet');
      continue;
    }
    const current = await currentPolicy(run, run.mapped('escalation_policy', p.externalId));
    await run.attempt('escalation_policy', p.externalId, p.name, async () => {
      if (current) {
        const same = current.name === name && current.repeat === p.repeat && canonicalJson(current.steps) === canonicalJson(steps);
        if (!same) {
          if (!run.dryRun)
            await updateEscalationPolicy(
              run.deps.orm,
              { id: current.id, organizationId: run.organizationId, changes: { name, steps, repeat: p.repeat } },
              opts,
            );
          run.report.updated.escalation_policy++;
        }
        return run.resolve('escalation_policy', p.externalId, current.id, name);
      }
      if (run.dryRun) {
        run.report.created.escalation_policy++;
        return run.resolve('escalation_policy', p.externalId, run.pending('escalation_policy', p.externalId), name);
      }
      const created = await createEscalationPolicy(run.deps.orm, { organizationId: run.organizationId, name, steps, repeat: p.repeat }, opts);
      await run.remember('escalation_policy', p.externalId, created.id);
      run.report.created.escalation_policy++;
      run.resolve('escalation_policy', p.externalId, created.id, name);
    });
  }
}
