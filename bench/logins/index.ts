/**
 * Concurrent logins (issue 21): 500 wrong logins for one account fired at once at the real app
 * listener from the load generator process. With attempts reserved in Postgres before the
 * password is checked, no more passwords are checked (401) than the account's limit allows; the
 * rest are refused (429). Also: the wall time from the first request sent to the last answer, and
 * whether the right password is refused afterwards (it must be, until the window ends).
 */
import { randomUUID } from 'node:crypto';
import { LOGIN_LIMITS } from '../../src/services/throttles/limits';
import { loadInChild } from '../harness/load';
import { round } from '../harness/numbers';
import type { Findings } from '../harness/report';
import type { BenchStack, Say } from '../harness/stack';

export const CONCURRENT_LOGINS = 500;
const JSON_HEADERS = { 'content-type': 'application/json' };

async function post(url: string, body: unknown): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

export async function benchLogins(stack: BenchStack, say: Say): Promise<Findings> {
  const account = { email: `bench-${randomUUID()}@example.test`, password: 'correct horse battery' };
  const created = await post(`${stack.appUrl}/api/auth/signup`, { ...account, name: 'Bench', organization_name: 'Bench logins' });
  if (created !== 201) throw new Error(`logins: sign-up answered ${created}`);
  say(`Logins: ${CONCURRENT_LOGINS} wrong logins for one account at once`);
  // Paced at 500 in a millisecond: every request leaves at once, each on its own connection.
  const run = await loadInChild({
    url: `${stack.appUrl}/api/auth/login`,
    method: 'POST',
    headers: JSON_HEADERS,
    request: { kind: 'fixed', body: JSON.stringify({ email: account.email, password: 'wrong password!' }) },
    shape: { kind: 'paced', rate: CONCURRENT_LOGINS * 1000, durationS: 0.001, maxInFlight: CONCURRENT_LOGINS, timeoutMs: 120_000 },
  });
  const after = await post(`${stack.appUrl}/api/auth/login`, account);
  const checked = run.statuses['401'] ?? 0;
  const refused = run.statuses['429'] ?? 0;
  const detail = `of ${CONCURRENT_LOGINS} wrong logins for one account sent at once (answers: ${JSON.stringify(run.statuses)}${run.transportErrors ? `, ${run.transportErrors} without an answer` : ''})`;
  return {
    figures: [],
    rates: [
      {
        key: 'logins_checked',
        label: 'concurrent wrong logins: passwords checked (401)',
        value: checked,
        unit: 'logins',
        target: { max: LOGIN_LIMITS.perAccount },
        detail,
      },
      {
        key: 'logins_refused',
        label: 'concurrent wrong logins: refused (429)',
        value: refused,
        unit: 'logins',
        target: { min: CONCURRENT_LOGINS - LOGIN_LIMITS.perAccount },
        detail,
      },
      {
        key: 'logins_wall_s',
        label: `concurrent wrong logins: ${CONCURRENT_LOGINS} answered in`,
        value: round(run.durationS, 2),
        unit: 's',
        detail: 'first request sent to last answer, in the load generator',
      },
    ],
    notes: [
      `Logins: the account allows ${LOGIN_LIMITS.perAccount} failed logins (and a client IP ${LOGIN_LIMITS.perIp}) per ${LOGIN_LIMITS.windowSeconds / 60} minutes before every login is refused; afterwards the right password was answered ${after}${after === 429 ? ' (refused, as it must be)' : ''}.`,
    ],
    phases: {
      logins: {
        sent: CONCURRENT_LOGINS,
        statuses: run.statuses,
        transport_errors: run.transportErrors,
        limit_per_account: LOGIN_LIMITS.perAccount,
        right_password_after: after,
      },
    },
  };
}
