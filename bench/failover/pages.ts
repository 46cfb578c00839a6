import { knexOf } from '../../src/db/knex';
import type { BenchStack } from '../harness/stack';
import { JSON_HEADERS } from '../harness/measured-load';
import type { TwilioFakeProcess } from '../paging/twilio';
import type { VonageFakeProcess } from './vonage';

const POLL_MS = 10;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every POLL_MS until it answers, or gives up after `timeoutMs` (undefined). */
export async function poll<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined || Date.now() > deadline) return found;
    await sleep(POLL_MS);
  }
}

/** Opens one incident on the service behind `url` (a Form A alert, a title of its own). */
export async function trigger(url: string, title: string): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ title, severity: 'critical' }) });
  if (res.status !== 202) throw new Error(`the alert "${title}" was answered ${res.status}: ${await res.text()}`);
}

/**
 * Waits for the `nth` SMS Twilio took for `phone` and for its page's row to say sent (the report
 * is then matched, not raced), and has the fake report on it. Its answer is among the fake's reports.
 */
export async function reportOnceSent(
  stack: BenchStack,
  twilio: TwilioFakeProcess,
  page: { title: string; phone: string; nth: number },
  report: { messageStatus: string; errorCode?: string },
): Promise<string> {
  const k = knexOf(stack.orm);
  const sms = await poll(async () => (await twilio.answered()).filter((r) => r.to === page.phone && r.sid)[page.nth], 30_000);
  if (!sms?.sid) throw new Error(`Twilio got no SMS for "${page.title}"`);
  const sent = await poll(async () => (await k('notifications').where({ provider_message_id: sms.sid, status: 'sent' }).first('id')) as unknown, 30_000);
  if (!sent) throw new Error(`the page of "${page.title}" was not marked sent`);
  await twilio.report(sms.sid, report.messageStatus, report.errorCode);
  return sms.sid;
}

/**
 * A page Twilio takes and reports delivered. Between the measured pages it keeps the circuit
 * breaker closed: otherwise, after five failures in a row, Twilio would be skipped and pages
 * would go to Vonage without failing over (src/domain/paging/carrier-breaker.ts).
 */
export async function deliveredThroughTwilio(
  stack: BenchStack,
  twilio: TwilioFakeProcess,
  page: { url: string; title: string; phone: string; nth: number },
): Promise<void> {
  await trigger(page.url, page.title);
  const sid = await reportOnceSent(stack, twilio, page, { messageStatus: 'delivered' });
  const settled = await poll(
    async () => (await knexOf(stack.orm)('carrier_attempts').where({ provider_message_id: sid, status: 'delivered' }).first('id')) as unknown,
    30_000,
  );
  if (!settled) throw new Error(`Twilio's delivery report on "${page.title}" settled nothing`);
}

/** Waits until Vonage has taken `n` SMS to `phone` (E.164); false after `timeoutMs`. */
export async function vonageTook(vonage: VonageFakeProcess, phone: string, n: number, timeoutMs: number): Promise<boolean> {
  const digits = phone.replace('+', '');
  const got = await poll(async () => ((await vonage.messages()).filter((m) => m.to === digits).length >= n ? true : undefined), timeoutMs);
  return got === true;
}
