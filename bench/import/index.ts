/**
 * Import (docs/importers.md): how long `klaxon import pagerduty` takes for a generated account of
 * 200 users (each with an email, an SMS and a phone contact method and four notification rules,
 * three of them high-urgency), 50 schedules (two layers each), 50 escalation policies and 100
 * services (one Events API v2 key each), served by the PagerDuty wire fake
 * (src/integrations/pagerduty/testing/wire-fake.ts, 100 items a page, as PagerDuty pages) in this process, into a
 * workspace where none of them is a member yet. Timed: a dry run first (it plans everything, the
 * people it would make included), then the import (reading every page, mapping, and writing
 * through the services: 200 members provisioned with a welcome email each, 600 contact methods,
 * 600 rules, teams, schedules, policies, services, sources, mappings, audit entries), then a
 * re-run with nothing to change.
 */
import { randomUUID } from 'node:crypto';
import type { ImportReport } from '../../src/domain/importers/plan';
import { importFrom } from '../../src/integrations/import-sources';
import { SYSTEM_CLI } from '../../src/services/audit';
import { createOrganization } from '../../src/services/workspace';
import { generatedAccount, startPagerDutyApi } from '../../src/integrations/pagerduty/testing/wire-fake';
import { round } from '../harness/numbers';
import type { Findings } from '../harness/report';
import type { BenchStack, Say } from '../harness/stack';

export const IMPORT_SIZES = { users: 200, schedules: 50, policies: 50, services: 100 } as const;

const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);

export async function benchImport(stack: BenchStack, say: Say): Promise<Findings> {
  const account = generatedAccount(IMPORT_SIZES);
  const fake = await startPagerDutyApi({ account, pageSize: 100 });
  try {
    const org = await createOrganization(stack.orm, { name: `Bench import ${randomUUID().slice(0, 8)}`, plan: 'BUSINESS' });
    let welcomed = 0;
    const deps = { orm: stack.orm, mailer: { send: async () => void welcomed++ }, appUrl: stack.appUrl, ingestBaseUrl: stack.ingestUrl };
    const run = async (dryRun: boolean): Promise<{ report: ImportReport; seconds: number; requests: number }> => {
      const before = fake.requests.length;
      const started = performance.now();
      const report = await importFrom(
        deps,
        { organizationId: org.id, system: 'pagerduty', dryRun, actor: { audit: SYSTEM_CLI, userId: null, role: 'BILLING_OWNER' } },
        // The fake listens on loopback: private targets allowed for this client only.
        { credential: fake.token, apiUrl: fake.url, allowPrivate: true },
      );
      return { report, seconds: (performance.now() - started) / 1000, requests: fake.requests.length - before };
    };
    say(
      `Import: PagerDuty account of ${IMPORT_SIZES.users} users (3 contact methods, 4 rules each), ${IMPORT_SIZES.schedules} schedules, ${IMPORT_SIZES.policies} policies, ${IMPORT_SIZES.services} services; nobody a member yet`,
    );
    const dry = await run(true);
    const first = await run(false);
    say(`Import: ${first.seconds.toFixed(2)} s (${total(first.report.created)} created, ${first.report.skipped.length} skipped, ${first.requests} requests)`);
    const again = await run(false);
    const detail = (r: { report: ImportReport; requests: number }) =>
      `${total(r.report.created)} created (${r.report.created.user} members, ${r.report.created.contact_method} contact methods, ${r.report.created.notification_rule} rules), ${total(r.report.updated)} updated, ${r.report.skipped.length} skipped, ${r.requests} GETs to the fake`;
    return {
      figures: [],
      rates: [
        { key: 'import_dry_run_seconds', label: 'import dry run (plans every kind, people included)', value: dry.seconds, unit: 's', detail: detail(dry) },
        {
          key: 'import_pagerduty_seconds',
          label: 'import: 200 users with contact methods and rules, 50 schedules, 50 policies, 100 services',
          value: first.seconds,
          unit: 's',
          detail: detail(first),
        },
        { key: 'reimport_pagerduty_seconds', label: 'import again (nothing to change)', value: again.seconds, unit: 's', detail: detail(again) },
      ],
      phases: {
        import: {
          sizes: IMPORT_SIZES,
          dry_run: { seconds: round(dry.seconds, 2), created: dry.report.created, requests: dry.requests },
          first: { seconds: round(first.seconds, 2), created: first.report.created, skipped: first.report.skipped.length, requests: first.requests },
          again: { seconds: round(again.seconds, 2), created: again.report.created, updated: again.report.updated, requests: again.requests },
          welcome_emails: welcomed,
        },
      },
      notes: [
        'Import: the PagerDuty wire fake serves the generated account from this process (100 items a page, users with their contact methods and rules through include[], no network latency, no rate limit): the figure is Klaxon’s own work — reading and checking every answer, mapping, and writing through the services — not PagerDuty’s speed. Nobody of the account is a member first: the import provisions all 200 (a transaction, an audit entry and a welcome email each). Each schedule has two layers of four people; each policy two rules; each service one Events API v2 key; each person an email, an SMS and a phone contact method, three high-urgency rules and a low-urgency one (reported, not imported).',
      ],
    };
  } finally {
    await fake.stop();
  }
}
