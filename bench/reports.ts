/**
 * Reports over 10,000 incidents: POST /api/reports/generate as JSON, CSV and PDF, timed end to
 * end (request sent to last byte read) through the dashboard API with a real session. The
 * workspace is seeded straight into Postgres (incidents, their created/acknowledged/resolved
 * timeline entries, pages, alerts) over the last 30 days: no workflow is needed to read them.
 * Target: each report under 2 s.
 */
import { newRoutingKey } from '../src/domain/routing-key';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { knexOf } from '../src/db/knex';
import { addUser, createOrganization, createService, createTeam } from '../src/services/workspace';
import { round } from './harness/numbers';
import type { Findings, Rate } from './harness/report';
import type { BenchStack, Say } from './harness/stack';

export const REPORT_INCIDENTS = 10_000;
const RUNS = 5;
const TARGET_S = 2;
export const PASSWORD = 'a long bench password';

/** A PRO workspace with 10,000 incidents of the last 30 days, and its admin's address. */
export async function seedReportWorkspace(stack: BenchStack): Promise<{ organizationId: string; email: string }> {
  const org = await createOrganization(stack.orm, { name: 'Bench reports', plan: 'PRO' });
  const email = `bench-reports-${randomUUID().slice(0, 8)}@example.test`;
  const admin = await addUser(stack.orm, { organizationId: org.id, email, password: PASSWORD, role: 'ACCOUNT_ADMIN', verified: true });
  const people = [admin.id];
  for (const zone of ['Asia/Tokyo', 'America/New_York']) {
    const u = await addUser(stack.orm, {
      organizationId: org.id,
      email: `bench-oncall-${randomUUID().slice(0, 8)}@example.test`,
      password: PASSWORD,
      role: 'MEMBER',
      verified: true,
    });
    await knexOf(stack.orm)('users').where({ id: u.id }).update({ time_zone: zone });
    people.push(u.id);
  }
  const teams = [
    (await createTeam(stack.orm, { organizationId: org.id, name: 'Ops' })).id,
    (await createTeam(stack.orm, { organizationId: org.id, name: 'Data' })).id,
  ];
  const services: string[] = [];
  for (let i = 0; i < 6; i++) services.push((await createService(stack.orm, { organizationId: org.id, teamId: teams[i % 2], name: `service-${i}` })).id);
  const db = knexOf(stack.orm);
  const sources = services.map((serviceId, i) => ({
    id: randomUUID(),
    organization_id: org.id,
    service_id: serviceId,
    name: `source-${i}`,
    token_hash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
    routing_key: newRoutingKey(),
    created_at: new Date(),
  }));
  await db('alert_sources').insert(sources);
  const b = {
    org: org.id,
    n: REPORT_INCIDENTS,
    services: `{${services.join(',')}}`,
    teams: `{${teams.join(',')}}`,
    people: `{${people.join(',')}}`,
    sources: `{${sources.map((s) => s.id).join(',')}}`,
  };
  await db.transaction(async (trx) => {
    // Spread over the last 27.9 days (all inside the default range); statuses: 10 % open, 10 % acknowledged, the rest resolved.
    await trx.raw(
      `insert into incidents (id, organization_id, number, service_id, owning_team_id, title, severity, status, alert_count, last_seq, created_at, updated_at)
       select gen_random_uuid(), :org, g, (:services::uuid[])[1 + g % 6], (:teams::uuid[])[1 + (g % 6) % 2], 'Bench report incident ' || g,
              (array['CRITICAL','HIGH','MEDIUM','LOW','INFO'])[1 + g % 5],
              case when g % 10 = 0 then 'TRIGGERED' when g % 10 = 1 then 'ACKNOWLEDGED' else 'RESOLVED' end, 2, 3,
              now() - (g * 241.0) * interval '1 second', now()
         from generate_series(1, :n) g`,
      b,
    );
    await trx.raw(`update organizations set incident_seq = :n where id = :org`, b);
    await trx.raw(
      `insert into timeline_entries (id, incident_id, organization_id, seq, type, actor_type, message, created_at)
       select gen_random_uuid(), id, organization_id, 1, 'created', 'system', 'opened', created_at from incidents where organization_id = :org`,
      b,
    );
    await trx.raw(
      `insert into timeline_entries (id, incident_id, organization_id, seq, type, from_status, to_status, actor_type, message, created_at)
       select gen_random_uuid(), id, organization_id, 2, 'status_change', 'TRIGGERED', 'ACKNOWLEDGED', 'user', 'Acknowledged', created_at + (30 + number % 900) * interval '1 second'
         from incidents where organization_id = :org and status <> 'TRIGGERED'`,
      b,
    );
    await trx.raw(
      `insert into timeline_entries (id, incident_id, organization_id, seq, type, from_status, to_status, actor_type, message, created_at)
       select gen_random_uuid(), id, organization_id, 3, 'status_change', 'ACKNOWLEDGED', 'RESOLVED', 'user', 'Resolved', created_at + (1000 + number % 7200) * interval '1 second'
         from incidents where organization_id = :org and status = 'RESOLVED'`,
      b,
    );
    await trx.raw(
      `insert into notifications (id, organization_id, incident_id, user_id, channel, target, status, created_at, updated_at)
       select gen_random_uuid(), i.organization_id, i.id, (:people::uuid[])[1 + (i.number + k) % 3], (array['email','sms','push','voice'])[1 + (i.number + k) % 4], 'bench',
              case when i.number % 50 = 0 then 'failed' else 'sent' end, i.created_at + k * interval '5 minutes', i.created_at
         from incidents i cross join generate_series(0, 1) k where i.organization_id = :org`,
      b,
    );
    await trx.raw(
      `insert into alerts (id, organization_id, source_id, service_id, incident_id, title, severity, status, sender, metadata, created_at)
       select gen_random_uuid(), i.organization_id, (:sources::uuid[])[1 + (i.number + k) % 6], i.service_id, i.id, 'bench alert', i.severity, 'RESOLVED', 'form-a', '{}', i.created_at
         from incidents i cross join generate_series(0, 1) k where i.organization_id = :org`,
      b,
    );
  });
  await db.raw('analyze incidents, timeline_entries, notifications, alerts');
  return { organizationId: org.id, email };
}

/** Logs in as the admin: the session cookie and CSRF value. */
export async function logIn(appUrl: string, email: string): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${appUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('__Host-klaxon_session='))!
    .split(';')[0];
  const body = (await res.json()) as { data: { csrf_token: string } };
  return { cookie, csrf: body.data.csrf_token };
}

/** One report, timed to its last byte; fails on anything but 200. */
async function timeReport(
  appUrl: string,
  session: { cookie: string; csrf: string },
  type: string,
  format: string,
): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  const res = await fetch(`${appUrl}/api/reports/generate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: session.cookie, 'X-CSRF-Token': session.csrf },
    body: JSON.stringify({ type, format }),
  });
  const body = Buffer.from(await res.arrayBuffer());
  const seconds = (performance.now() - started) / 1000;
  if (res.status !== 200) throw new Error(`${type} ${format} report answered ${res.status}: ${body.toString('utf8').slice(0, 300)}`);
  return { seconds, bytes: body.length };
}

/** A timing of a report that missed incidents would flatter it: the summary must count them all. */
async function checkCounted(appUrl: string, session: { cookie: string; csrf: string }): Promise<void> {
  const res = await fetch(`${appUrl}/api/reports/generate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: session.cookie, 'X-CSRF-Token': session.csrf },
    body: JSON.stringify({ type: 'summary' }),
  });
  const body = (await res.json()) as { data?: { totals?: { incidents: number }; mtta?: { count: number } } };
  if (body.data?.totals?.incidents !== REPORT_INCIDENTS || body.data.mtta?.count !== REPORT_INCIDENTS * 0.9) {
    throw new Error(
      `the summary report counted ${JSON.stringify(body.data?.totals)} / MTTA ${JSON.stringify(body.data?.mtta)}, expected ${REPORT_INCIDENTS} incidents`,
    );
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Seeds the workspace, then times each report `RUNS` times (after one warm-up). */
export async function benchReports(stack: BenchStack, say: Say): Promise<Findings> {
  say(`Reports: seeding ${REPORT_INCIDENTS} incidents with timelines, pages and alerts`);
  const ws = await seedReportWorkspace(stack);
  const session = await logIn(stack.appUrl, ws.email);
  await checkCounted(stack.appUrl, session);
  const cases: Array<[string, string]> = [
    ['summary', 'json'],
    ['detailed', 'json'],
    ['detailed', 'csv'],
    ['detailed', 'pdf'],
    ['performance', 'pdf'],
    ['incidents', 'csv'],
  ];
  const rates: Rate[] = [];
  const phase: Record<string, unknown> = {};
  for (const [type, format] of cases) {
    await timeReport(stack.appUrl, session, type, format);
    const runs: Array<{ seconds: number; bytes: number }> = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timeReport(stack.appUrl, session, type, format));
    const seconds = runs.map((r) => r.seconds);
    const key = `report_${type}_${format}_10k_s`;
    rates.push({
      key,
      label: `report ${type} ${format} (10k incidents)`,
      value: median(seconds),
      unit: 's',
      target: { max: TARGET_S },
      detail: `median of ${RUNS} after a warm-up; max ${round(Math.max(...seconds), 3)} s; ${Math.round(runs[0].bytes / 1024)} KiB`,
    });
    phase[key] = { seconds: seconds.map((s) => round(s, 3)), bytes: runs[0].bytes };
    say(`  ${type} ${format}: median ${round(median(seconds), 3)} s, max ${round(Math.max(...seconds), 3)} s`);
  }
  return {
    figures: [],
    rates,
    phases: { reports: phase },
    notes: [
      `Reports: a PRO workspace ${ws.organizationId} seeded directly in Postgres with ${REPORT_INCIDENTS} incidents over the last 28 days (90 % acknowledged, 80 % resolved, each with its timeline entries), 2 pages and 2 alerts per incident; each report is the default range (the last 30 days), timed from request to the last byte through POST /api/reports/generate with a session.`,
    ],
  };
}
