/**
 * What-if over 10,000 incidents (docs/what-if.md): POST /api/escalation-policies/simulate on a
 * service with 10,000 incidents of the last 28 days, against a draft policy of two steps (a
 * weekly rotation of three people, then a team) repeated once, everyone with two rules; timed end
 * to end (request sent to last byte read) with a real session. Target: under 2 s. The answer is
 * over 5 MiB, so it comes in parts (docs/what-if.md, "Bounds"): the first part is timed (what the
 * policy editor waits for), and every part once.
 */
import { performance } from 'node:perf_hooks';
import { knexOf } from '../src/db/knex';
import { addContactMethod, addNotificationRule, createSchedule } from '../src/services/paging';
import { addTeamMember } from '../src/services/workspace/team-members';
import { round } from './harness/numbers';
import type { Findings } from './harness/report';
import type { BenchStack, Say } from './harness/stack';
import { logIn, REPORT_INCIDENTS, seedReportWorkspace } from './reports';

const RUNS = 5;
const TARGET_S = 2;

/** The report bench's workspace with every incident on one service, acknowledged ones with their time, and paging set up. */
async function seedWhatIf(stack: BenchStack) {
  const ws = await seedReportWorkspace(stack);
  const db = knexOf(stack.orm);
  const service = await db('services').select('id').where({ organization_id: ws.organizationId }).orderBy('name').first();
  await db('incidents').where({ organization_id: ws.organizationId }).update({ service_id: service.id });
  // The seed's statuses, with the instants the what-if reads: acknowledged 30 s – 15 min after opening.
  await db.raw(
    `update incidents set acknowledged_at = created_at + (30 + number % 900) * interval '1 second'
      where organization_id = ? and status <> 'TRIGGERED'`,
    [ws.organizationId],
  );
  const people: Array<{ id: string; email: string }> = await db('users as u')
    .join('memberships as m', 'm.user_id', 'u.id')
    .select('u.id', 'u.email')
    .where('m.organization_id', ws.organizationId)
    .orderBy('u.email');
  const team = await db('teams').select('id').where({ organization_id: ws.organizationId }).orderBy('name').first();
  for (const p of people) {
    await addTeamMember(stack.orm, { teamId: team.id, email: p.email });
    const email = await addContactMethod(stack.orm, { email: p.email, type: 'email', address: p.email });
    await addNotificationRule(stack.orm, { email: p.email, contactMethodId: email.id, delaySeconds: 0 });
    const sms = await addContactMethod(stack.orm, { email: p.email, type: 'sms', address: `+1555${String(people.indexOf(p)).padStart(7, '0')}` });
    await db('contact_methods').where({ id: sms.id }).update({ verified_at: new Date() });
    await addNotificationRule(stack.orm, { email: p.email, contactMethodId: sms.id, delaySeconds: 120 });
  }
  const schedule = await createSchedule(stack.orm, {
    organizationId: ws.organizationId,
    name: 'Weekly',
    timeZone: 'Europe/Paris',
    layers: [{ users: people.map((p) => p.email), rotation: { unit: 'weeks', length: 1 }, start: '2026-01-05' }],
  });
  const policy = {
    steps: [
      { delay_seconds: 300, targets: [{ type: 'schedule', id: schedule.id }] },
      { delay_seconds: 600, targets: [{ type: 'team', id: team.id }] },
    ],
    repeat: 1,
  };
  return { ...ws, serviceId: service.id as string, policy };
}

/** The simulation's request: the seeded draft over the last 30 days, where every seeded incident lies. */
export const whatIfBody = (ws: { serviceId: string; policy: unknown }): string =>
  JSON.stringify({ service_id: ws.serviceId, policy: ws.policy, from: new Date(Date.now() - 30 * 86_400_000).toISOString(), to: new Date().toISOString() });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Seeds, then times the simulation `RUNS` times after a warm-up. */
export async function benchWhatIf(stack: BenchStack, say: Say): Promise<Findings> {
  say(`What-if: seeding ${REPORT_INCIDENTS} incidents on one service`);
  const ws = await seedWhatIf(stack);
  const session = await logIn(stack.appUrl, ws.email);
  const body = whatIfBody(ws);
  /** One answer (the first part, or the part `cursor` names), timed to its last byte. */
  const once = async (cursor?: string) => {
    const started = performance.now();
    const res = await fetch(`${stack.appUrl}/api/escalation-policies/simulate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: session.cookie, 'X-CSRF-Token': session.csrf },
      body: cursor ? JSON.stringify({ ...(JSON.parse(body) as object), cursor }) : body,
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const seconds = (performance.now() - started) / 1000;
    if (res.status !== 200) throw new Error(`simulate answered ${res.status}: ${bytes.toString('utf8').slice(0, 300)}`);
    const data = (
      JSON.parse(bytes.toString('utf8')) as {
        data: { incidents: Array<{ would_page: unknown[] }>; incident_count?: number; truncated: boolean; next_cursor?: string | null };
      }
    ).data;
    return {
      seconds,
      bytes: bytes.length,
      // An answer over 5 MiB comes in parts (docs/what-if.md, "Bounds"): incident_count counts them all.
      incidents: data.incident_count ?? data.incidents.length,
      listed: data.incidents.length,
      pages: data.incidents.reduce((n, i) => n + i.would_page.length, 0),
      truncated: data.truncated,
      next: data.next_cursor ?? null,
    };
  };
  const warm = await once();
  if (warm.incidents !== REPORT_INCIDENTS || warm.truncated) {
    throw new Error(`the simulation replayed ${warm.incidents} incidents (truncated ${warm.truncated}), expected all ${REPORT_INCIDENTS}`);
  }
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once());
  const seconds = runs.map((r) => r.seconds);
  // The whole answer, every part, once: the later parts replay again (their cursor pins the same "now").
  const parts = [warm];
  while (parts[parts.length - 1].next) parts.push(await once(parts[parts.length - 1].next!));
  const wholeSeconds = parts.reduce((n, p) => n + p.seconds, 0);
  const wholePages = parts.reduce((n, p) => n + p.pages, 0);
  say(
    `  simulate: median ${round(median(seconds), 3)} s, max ${round(Math.max(...seconds), 3)} s; ${parts.length} part(s) of ${parts.map((p) => `${Math.round(p.bytes / 1024)} KiB`).join(', ')}, all in ${round(wholeSeconds, 3)} s`,
  );
  return {
    figures: [],
    rates: [
      {
        key: 'what_if_10k_s',
        label: 'what-if over 10k incidents',
        value: median(seconds),
        unit: 's',
        target: { max: TARGET_S },
        detail: `median of ${RUNS} after a warm-up, the first (or only) part of the answer; max ${round(Math.max(...seconds), 3)} s; ${wholePages} would-pages; ${parts.length} part(s): ${parts.map((p) => `${p.listed} incidents in ${Math.round(p.bytes / 1024)} KiB`).join(', ')}; every part in ${round(wholeSeconds, 3)} s`,
      },
    ],
    phases: {
      what_if: {
        seconds: seconds.map((s) => round(s, 3)),
        bytes: warm.bytes,
        would_pages: wholePages,
        parts: parts.map((p) => ({ incidents: p.listed, bytes: p.bytes, seconds: round(p.seconds, 3) })),
      },
    },
    notes: [
      `What-if: ${REPORT_INCIDENTS} incidents of the last 28 days on one service (90 % acknowledged 30 s – 15 min after opening, 10 % still TRIGGERED, so replayed until now), seeded straight into Postgres with 2 real pages each; a draft policy (a weekly rotation of 3 people at step 1, their team at step 2 after 5 min, repeated once; each person pages by email at once and SMS after 2 min), replayed over the last 30 days through POST /api/escalation-policies/simulate with a session, timed from request to the last byte.`,
    ],
  };
}
