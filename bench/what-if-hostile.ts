/**
 * A hostile what-if (issue 36, docs/what-if.md "Bounds"): a draft of 20 steps × 50 people,
 * repeated 9 times, one second between steps, replayed over a service whose incidents all stayed
 * TRIGGERED (so every step of every pass pages: 10,000 pages an incident). Measured through POST
 * /api/escalation-policies/simulate with a session: time to the last byte, the answer's bytes, and
 * the worst event-loop delay of this process, which hosts the API (perf_hooks'
 * monitorEventLoopDelay, 10 ms resolution, over the request; the answer is counted chunk by chunk
 * and parsed only after the last byte, so the client's own work is not in the figure). Then three
 * at once: at most two run per workspace. `--hostile-incidents N` sets the incidents (default 1,000).
 */
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { knexOf } from '../src/db/knex';
import { addContactMethod, addNotificationRule } from '../src/services/paging';
import { addUser, createOrganization, createService, createTeam } from '../src/services/workspace';
import { round } from './harness/numbers';
import type { Findings } from './harness/report';
import type { BenchStack, Say } from './harness/stack';
import { logIn, PASSWORD } from './reports';
import { whatIfBody } from './what-if';

const PEOPLE = 50;
const STEPS = 20;
const REPEAT = 9;
export const DEFAULT_HOSTILE_INCIDENTS = 1_000;
/** Answers above this are counted, not parsed (before the bounds they ran to hundreds of MiB). */
const PARSE_AT_MOST = 16 * 1024 * 1024;

/** A PRO workspace: 50 people paged by SMS at once, one service with `incidents` still TRIGGERED (opened 1 h – a few days ago). */
async function seedHostile(stack: BenchStack, incidents: number) {
  const org = await createOrganization(stack.orm, { name: 'Bench hostile what-if', plan: 'PRO' });
  const email = `bench-hostile-${randomUUID().slice(0, 8)}@example.test`;
  await addUser(stack.orm, { organizationId: org.id, email, password: PASSWORD, role: 'ACCOUNT_ADMIN', verified: true });
  const team = await createTeam(stack.orm, { organizationId: org.id, name: 'Everyone' });
  const service = await createService(stack.orm, { organizationId: org.id, teamId: team.id, name: 'hostile' });
  const db = knexOf(stack.orm);
  const people: string[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    const u = await addUser(stack.orm, {
      organizationId: org.id,
      email: `bench-hostile-${i}-${randomUUID().slice(0, 6)}@example.test`,
      password: PASSWORD,
      role: 'MEMBER',
      verified: true,
    });
    const sms = await addContactMethod(stack.orm, { email: u.email, type: 'sms', address: `+1555${String(9_000_000 + i).padStart(7, '0')}` });
    await db('contact_methods').where({ id: sms.id }).update({ verified_at: new Date() });
    await addNotificationRule(stack.orm, { email: u.email, contactMethodId: sms.id, delaySeconds: 0 });
    people.push(u.id);
  }
  await db.raw(
    `insert into incidents (id, organization_id, number, service_id, owning_team_id, title, severity, status, alert_count, last_seq, created_at, updated_at)
     select gen_random_uuid(), :org, g, :service, :team, 'Hostile what-if incident ' || g, 'HIGH', 'TRIGGERED', 1, 1,
            now() - interval '1 hour' - g * interval '3 minutes', now()
       from generate_series(1, :n) g`,
    { org: org.id, service: service.id, team: team.id, n: incidents },
  );
  await db.raw(`update organizations set incident_seq = :n where id = :org`, { org: org.id, n: incidents });
  await db.raw('analyze incidents');
  const targets = people.map((id) => ({ type: 'user', id }));
  const policy = { steps: Array.from({ length: STEPS }, () => ({ delay_seconds: 1, targets })), repeat: REPEAT };
  return { email, serviceId: service.id, policy };
}

interface Answer {
  status: number;
  seconds: number;
  bytes: number;
  data?: { incidents: unknown[]; truncated: boolean; truncated_reason?: string | null; next_cursor?: string | null; incident_count?: number };
  error?: string;
}

/** One simulation, its answer counted chunk by chunk; parsed after the last byte when small enough. */
async function simulate(appUrl: string, session: { cookie: string; csrf: string }, body: string): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${appUrl}/api/escalation-policies/simulate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: session.cookie, 'X-CSRF-Token': session.csrf },
    body,
  });
  const kept: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    if (bytes <= PARSE_AT_MOST) kept.push(Buffer.from(chunk));
  }
  const seconds = (performance.now() - started) / 1000;
  const text = () => Buffer.concat(kept).toString('utf8');
  if (res.status !== 200) return { status: res.status, seconds, bytes, error: bytes <= PARSE_AT_MOST ? text().slice(0, 300) : '(too long)' };
  return { status: 200, seconds, bytes, data: bytes <= PARSE_AT_MOST ? (JSON.parse(text()) as { data: Answer['data'] }).data : undefined };
}

/** The worst event-loop delay (ms) of this process while `run` runs. */
async function worstDelayDuring<T>(run: () => Promise<T>): Promise<{ result: T; worstMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const result = await run();
    return { result, worstMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}

/** `--hostile-incidents N`, or the default. */
export function hostileIncidentsFlag(): number {
  const i = process.argv.indexOf('--hostile-incidents');
  if (i < 0) return DEFAULT_HOSTILE_INCIDENTS;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new Error('--hostile-incidents takes a number of incidents, 1 to 10,000');
  return n;
}

/** Seeds, then one hostile simulation (its time, bytes and worst event-loop delay), then three at once. */
export async function benchWhatIfHostile(stack: BenchStack, say: Say, incidents = hostileIncidentsFlag()): Promise<Findings> {
  say(`Hostile what-if: seeding ${incidents} TRIGGERED incidents, ${PEOPLE} people; a draft of ${STEPS} steps × ${PEOPLE} people, repeat ${REPEAT}`);
  const ws = await seedHostile(stack, incidents);
  const session = await logIn(stack.appUrl, ws.email);
  const body = whatIfBody(ws);
  // As a running API would have: the draft's validation code warmed by the same draft over a range without incidents (nothing replayed).
  const empty = await simulate(
    stack.appUrl,
    session,
    JSON.stringify({ ...(JSON.parse(body) as object), from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' }),
  );
  if (empty.status !== 200) throw new Error(`the warm-up simulation answered ${empty.status}: ${empty.error}`);
  const one = await worstDelayDuring(() => simulate(stack.appUrl, session, body));
  const answer = one.result;
  const replayed = answer.data ? (answer.data.incident_count ?? answer.data.incidents.length) : undefined;
  say(
    `  one: ${answer.status} in ${round(answer.seconds, 3)} s, ${round(answer.bytes / 1024 / 1024, 2)} MiB, worst event-loop delay ${round(one.worstMs, 1)} ms` +
      (answer.data
        ? `, ${replayed} incidents replayed, truncated ${answer.data.truncated} (${answer.data.truncated_reason ?? '-'}), next_cursor ${answer.data.next_cursor ? 'yes' : 'no'}`
        : '') +
      (answer.error ? `, ${answer.error}` : ''),
  );
  const three = await worstDelayDuring(() => Promise.all([0, 1, 2].map(() => simulate(stack.appUrl, session, body))));
  const statuses = three.result.map((r) => r.status);
  say(
    `  three at once: ${statuses.join(', ')}, worst event-loop delay ${round(three.worstMs, 1)} ms, slowest ${round(Math.max(...three.result.map((r) => r.seconds)), 3)} s`,
  );
  return {
    figures: [],
    rates: [
      {
        key: 'what_if_hostile_s',
        label: `hostile what-if (${incidents} incidents)`,
        value: answer.seconds,
        unit: 's',
        detail: `status ${answer.status}; ${round(answer.bytes / 1024 / 1024, 2)} MiB answer; ${replayed ?? '?'} incidents replayed`,
      },
      {
        key: 'what_if_hostile_bytes_mib',
        label: 'hostile what-if answer',
        value: answer.bytes / 1024 / 1024,
        unit: 'MiB',
        target: { max: 5 },
        detail: answer.data ? `truncated ${answer.data.truncated} (${answer.data.truncated_reason ?? '-'})` : 'not parsed',
      },
      {
        key: 'what_if_hostile_loop_ms',
        label: 'hostile what-if: worst event-loop delay',
        value: one.worstMs,
        unit: 'ms',
        target: { max: 100 },
        detail: `three at once: ${statuses.join(', ')}; worst ${round(three.worstMs, 1)} ms`,
      },
    ],
    phases: {
      what_if_hostile: {
        incidents,
        one: { status: answer.status, seconds: round(answer.seconds, 3), bytes: answer.bytes, worst_loop_delay_ms: round(one.worstMs, 1) },
        three_at_once: { statuses, worst_loop_delay_ms: round(three.worstMs, 1) },
      },
    },
    notes: [
      `Hostile what-if: ${incidents} incidents of one service, all still TRIGGERED (opened 1 h to ${Math.round((60 + incidents * 3) / 60)} h ago), ${PEOPLE} people each paged by SMS at once; a draft of ${STEPS} steps of all ${PEOPLE} people, 1 s apart, repeated ${REPEAT} times (10,000 would-pages an incident), replayed over the last 30 days through POST /api/escalation-policies/simulate with a session. The worst event-loop delay is this process's (it hosts the API), over the request, 10 ms resolution, after one warm-up request with the same draft over a range without incidents (validating a 1,000-target draft the first time costs tens of ms of JIT); then three of the same at once.`,
    ],
  };
}
