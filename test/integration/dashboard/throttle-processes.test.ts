import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../src/net';
import { apiProcess, type ApiPorts } from '../../faults/klaxon';
import type { Child } from '../../faults/processes';
import { newAccount, SESSION_COOKIE } from '../../support/dashboard';
import { sendRaw, type RawResponse } from '../../support/raw-http';
import { TEST_SECRET } from '../../support/stack';

// Two real `klaxon api` processes on this file's database and the run's Temporal, as production
// runs several behind a load balancer: throttle counts must be shared, and reserved atomically.
jest.setTimeout(240_000);

const FLOOD = 50;
let runDir: string;
const apis: Array<{ child: Child; url: string }> = [];

/** `n` distinct free ports (the OS may hand one out again once it is closed). */
async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

beforeAll(async () => {
  runDir = await mkdtemp(path.join(os.tmpdir(), 'klaxon-throttle-'));
  const shared = {
    databaseUrl: process.env.KLAXON_TEST_DATABASE_URL!,
    temporalAddress: process.env.KLAXON_TEST_TEMPORAL_ADDRESS!,
    taskQueue: `klaxon-test-${randomUUID()}`,
    secret: TEST_SECRET,
    twilio: {},
  };
  const [a, b, c, d, e, f] = await distinctFreePorts(6);
  const ports: ApiPorts[] = [
    { app: a, ingest: b, apiKey: c },
    { app: d, ingest: e, apiKey: f },
  ];
  const children = ports.map((p, i) => ({ child: apiProcess(`api-${i + 1}`, shared, p, runDir), url: `http://127.0.0.1:${p.app}` }));
  // Pushed before they start: afterAll stops whichever did.
  apis.push(...children);
  await Promise.all(children.map(({ child }) => child.start()));
});

afterAll(async () => {
  await Promise.all(apis.map(({ child }) => child.stop(5000)));
  await rm(runDir, { recursive: true, force: true });
});

/** A POST to the dashboard API of API process `i`, from a chosen loopback address (so each test is its own client IP). */
function post(i: number, route: string, body: unknown, from: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return sendRaw('POST', `${apis[i % apis.length].url}/api${route}`, { body: JSON.stringify(body), headers, localAddress: from });
}

/** How many answers had each status. */
const tally = (answers: RawResponse[]) => answers.reduce<Record<number, number>>((t, r) => ({ ...t, [r.status]: (t[r.status] ?? 0) + 1 }), {});

async function signUp(from: string): Promise<{ email: string; password: string }> {
  const account = newAccount();
  const created = await post(0, '/auth/signup', account, from);
  expect(created.status).toBe(201);
  return { email: account.email, password: account.password };
}

function expectRefusals(answers: RawResponse[]): void {
  for (const r of answers.filter((a) => a.status === 429)) {
    expect(r.body).toMatchObject({ success: false, code: 'rate_limited' });
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(900);
  }
}

describe('throttles shared by two API processes', () => {
  it(`when ${FLOOD} wrong logins for one account arrive at once, half at each API process, then exactly 5 passwords are checked (401) and the rest are 429; the right password is 429 afterwards`, async () => {
    const from = '127.0.0.31';
    const account = await signUp(from);
    const answers = await Promise.all(
      Array.from({ length: FLOOD }, (_, i) => post(i, '/auth/login', { email: account.email, password: `wrong password ${i}` }, from)),
    );
    expect(tally(answers)).toEqual({ 401: 5, 429: FLOOD - 5 });
    expectRefusals(answers);
    for (const i of [0, 1]) expect((await post(i, '/auth/login', account, from)).status).toBe(429);
  });

  it(`when ${FLOOD} wrong step-ups for one session arrive at once, half at each API process, then exactly 5 passwords are checked (403 step_up_failed) and the rest are 429; the right password is 429 afterwards`, async () => {
    const from = '127.0.0.32';
    const account = await signUp(from);
    const login = await post(1, '/auth/login', account, from);
    expect(login.status).toBe(200);
    const headers = { Cookie: `${SESSION_COOKIE}=${sessionCookieFromRaw(login)}`, 'X-CSRF-Token': login.body.data.csrf_token as string };
    const answers = await Promise.all(Array.from({ length: FLOOD }, (_, i) => post(i, '/auth/step-up', { password: `wrong password ${i}` }, from, headers)));
    expect(tally(answers)).toEqual({ 403: 5, 429: FLOOD - 5 });
    for (const r of answers.filter((a) => a.status === 403)) expect(r.body.code).toBe('step_up_failed');
    expectRefusals(answers);
    for (const i of [0, 1]) expect((await post(i, '/auth/step-up', { password: account.password }, from, headers)).status).toBe(429);
  });
});

/** The session cookie's value from a raw answer's Set-Cookie. */
function sessionCookieFromRaw(res: RawResponse): string {
  const line = (res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!line) throw new Error('login answered no session cookie');
  return line.slice(SESSION_COOKIE.length + 1).split(';')[0];
}
