/**
 * Paging (issue 5), through the real Twilio SDK to the wire fake in a process of its own
 * (twilio.ts, twilio-child.ts): 202 → first SMS at 10/s and 100/s, split down to each workflow
 * and activity task from the histories; 202 → first browser push (web-push.ts) at the same rates; event → delivered to an
 * outgoing webhook; incident opened → Slack message posted (slack.ts); escalation step lateness with 1,000 incidents open; worker
 * memory per open incident after a forced GC. Builds on the ingestion phases' IngestBench.
 */
import type { Findings } from '../harness/report';
import type { BenchStack, Say } from '../harness/stack';
import { IngestBench } from '../ingest/bench';
import { IngestProbe } from '../ingest/probe';
import { PagingBench } from './bench';
import { escalationUnderLoad } from './escalation';
import { cpuPerIncidentMethod, FIRST_PAGE_METHOD, firstPageSteady, type FirstPageLoad } from './first-page';
import { firstPageDuringStorm } from './dedup-storm';
import { workerScaling } from './worker-scaling';
import type { ClusterRoles } from '../harness/cluster-stack';
import { describeMemory, memoryAfterGc, memoryJson } from './memory';
import { PagingProbe } from './probe';
import { seedPagingWorkspace } from './seed';
import { closeIncidents } from './stop';
import { webhookLatency } from './webhooks';
import { slackLatency } from './slack';
import type { TwilioFakeProcess } from './twilio';
import { firstPushSteady, type WebPushService } from './web-push';
import type { SlackApiFake } from '../../src/integrations/slack/testing/wire-fake';

/**
 * 202 → first SMS at a rate 2 cores keep up with (the path's own latency), then at the 100/s the
 * target is judged at.
 */
const FIRST_PAGE_LOADS: FirstPageLoad[] = [
  { rate: 10, durationS: 10 },
  { rate: 100, durationS: 8, target: { p50: 300, p99: 1000 } },
];

/**
 * The paging figures of issue 5, in order: 202 → first SMS at steady rates (which also warms the
 * paging path up), then escalation lateness and worker memory with 1,000 incidents open. Each
 * phase's incidents are resolved and closed through the API before the next one starts.
 */
export async function benchPaging(
  stack: BenchStack,
  fake: TwilioFakeProcess,
  say: Say,
  slack: SlackApiFake,
  opts: { slackOnly?: boolean; firstPageOnly?: boolean; firstSmsOnly?: boolean; scalingOnly?: boolean; push?: WebPushService; cluster?: ClusterRoles } = {},
): Promise<Findings> {
  const ingestProbe = await IngestProbe.connect(stack.infra.databaseUrl);
  const probe = await PagingProbe.connect(stack.infra.databaseUrl);
  try {
    const ws = await seedPagingWorkspace(stack.orm);
    const p = new PagingBench(new IngestBench(stack, ws, ingestProbe, say), fake, probe);
    // `--slack-only`: incident opened → Slack message posted, alone.
    if (opts.slackOnly) {
      await closeAll(p, await slackLatency(p, slack), 'the Slack message phase');
      return p.b.out;
    }
    // `--cluster --scaling-only`: the sustained rate with one worker, then with all, alone.
    if (opts.cluster && opts.scalingOnly) {
      await closeAll(p, await workerScaling(p, opts.cluster), 'the worker scaling phase');
      return p.b.out;
    }
    for (const load of FIRST_PAGE_LOADS) await closeAll(p, await firstPageSteady(p, load), `the 202 → first SMS phase at ${load.rate}/s`);
    p.b.out.notes.push(FIRST_PAGE_METHOD, cpuPerIncidentMethod(stack));
    // `--first-sms-only`: the 202 → first SMS phases and their CPU per incident, with the dedup storm.
    if (opts.firstSmsOnly) {
      await closeAll(p, await firstPageDuringStorm(p), 'the dedup storm phase');
      return p.b.out;
    }
    // `--first-page-only`: the 202 → first SMS phases alone, then escalation lateness with 1,000 open.
    if (opts.firstPageOnly) {
      await closeAll(p, await escalationUnderLoad(p), 'the escalation phase');
      return p.b.out;
    }
    // 202 → first browser push, in the same run and at the same rates as the first SMS.
    const { push } = opts;
    if (push) for (const load of FIRST_PAGE_LOADS) await closeAll(p, await firstPushSteady(p, push, load), `the 202 → first web push phase at ${load.rate}/s`);
    await closeAll(p, await webhookLatency(p), 'the outgoing webhook phase');
    await closeAll(p, await slackLatency(p, slack), 'the Slack message phase');
    if (opts.cluster) {
      p.b.out.notes.push(
        'Cluster shape: the escalation phase (step lateness and worker memory per open incident) and the memory after closing did not run: worker memory is read through an inspector session in the process that runs the worker.',
      );
      await closeAll(p, await workerScaling(p, opts.cluster), 'the worker scaling phase');
    } else {
      await closeAll(p, await escalationUnderLoad(p), 'the escalation phase');
      await p.b.workerCatchUp('after closing');
      const closed = await memoryAfterGc();
      say(`Memory after closing them: ${describeMemory(closed)}`);
      p.b.phase('paging: escalation', { memory_after_close: memoryJson(closed) });
      p.b.out.notes.push(
        `Worker memory after the escalation phase's incidents were closed (their workflows completed, out of the cache), after GC: ${describeMemory(closed)}.`,
      );
    }
    // Last, so the phases before it (and the memory figure) run as they did without it.
    await closeAll(p, await firstPageDuringStorm(p), 'the dedup storm phase');
    p.b.out.notes.push(
      "Paging phases: their own BUSINESS workspace (1,000 SMS per user per month; PRO's 300 would send the rest by email); the Twilio fake runs in a child process of its own, and its CPU time is in the load generator column of the paging CPU rows.",
      ...(stack.infra.embedded.postgres
        ? []
        : [`Not cleaned up: the paging workspace ${ws.organizationId} and its closed incidents stay in the DATABASE_URL database.`]),
    );
    const { refused } = await fake.count();
    if (refused) p.b.out.notes.push(`The Twilio fake refused ${refused} REST calls (authentication or path): the stack's Twilio configuration is wrong.`);
    return p.b.out;
  } finally {
    await Promise.all([ingestProbe.close(), probe.close()]);
  }
}

async function closeAll(p: PagingBench, ids: string[], what: string): Promise<void> {
  p.b.say(`Resolving and closing the ${ids.length} incidents of ${what} through the API`);
  const { closed, failures } = await closeIncidents(p.b.stack.appUrl, p.b.ws, ids);
  if (closed !== ids.length) p.b.out.notes.push(`Closing the incidents of ${what}: ${closed} of ${ids.length} closed; refused: ${JSON.stringify(failures)}.`);
}
