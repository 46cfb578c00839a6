/**
 * The Twilio wire fake in a process of its own (bench/paging/twilio.ts drives it over IPC): its
 * arrival times are not delayed by the event loop of the stack it measures, and its CPU time is
 * counted apart from the stack's.
 */
import { startTwilioFake, type TwilioFake, type TwilioRequest } from '../../src/integrations/twilio/testing/wire-fake';
import type { FakeAnswer, FakeAsk, SentReport } from './twilio';

let fake: TwilioFake | undefined;
/** Per number: the report each SMS the fake takes gets at once. */
const reportOnArrival = new Map<string, { messageStatus: string; errorCode?: string }>();
const reports: SentReport[] = [];

/** A StatusCallback on one SMS, signed as Twilio signs it, to the URL the SMS named; its answer is kept. */
async function report(sms: TwilioRequest, messageStatus: string, errorCode?: string): Promise<void> {
  const url = sms.params.StatusCallback;
  if (!url || !sms.sid) return;
  const params = { MessageSid: sms.sid, SmsSid: sms.sid, MessageStatus: messageStatus, To: sms.params.To ?? '', From: sms.params.From ?? '' };
  const answer = await fake!.callBackTo(url, errorCode ? { ...params, ErrorCode: errorCode } : params).then(
    (r) => r.status,
    () => 0,
  );
  reports.push({ sid: sms.sid, to: sms.params.To ?? '', body: sms.params.Body ?? '', messageStatus, answer, answeredAt: Date.now() });
}

function onAccepted(sms: TwilioRequest): void {
  const r = sms.kind === 'message' ? reportOnArrival.get(sms.params.To ?? '') : undefined;
  if (r) void report(sms, r.messageStatus, r.errorCode);
}

async function answer(ask: FakeAsk): Promise<FakeAnswer> {
  switch (ask.kind) {
    case 'start':
      fake = await startTwilioFake({ ...ask.account, onAccepted });
      return { kind: 'started', url: fake.url };
    case 'count': {
      const byTo: Record<string, number> = {};
      for (const m of fake!.messages()) byTo[m.params.To ?? ''] = (byTo[m.params.To ?? ''] ?? 0) + 1;
      return { kind: 'count', accepted: fake!.messages().length, refused: fake!.requests.filter((r) => r.status >= 300).length, byTo };
    }
    case 'messages': {
      // Only what the bench matches on; the rest (signatures, SIDs) stays here.
      const messages = fake!
        .messages()
        .slice(ask.from)
        .map((m) => ({ to: m.params.To ?? '', body: m.params.Body ?? '', at: m.at }));
      return { kind: 'messages', messages };
    }
    case 'answered': {
      const requests = fake!.requests
        .filter((r) => r.kind === 'message')
        .slice(ask.from)
        .map((r) => ({ to: r.params.To ?? '', body: r.params.Body ?? '', status: r.status, sid: r.sid, at: r.at }));
      return { kind: 'answered', requests };
    }
    case 'fail-to':
      fake!.failTo(ask.to, { status: ask.status, message: 'Internal Server Error' });
      return { kind: 'done' };
    case 'report-on-arrival':
      reportOnArrival.set(ask.to, { messageStatus: ask.messageStatus, errorCode: ask.errorCode });
      return { kind: 'done' };
    case 'report': {
      const sms = fake!.messages().find((m) => m.sid === ask.sid);
      if (!sms) throw new Error(`no SMS ${ask.sid} was taken`);
      await report(sms, ask.messageStatus, ask.errorCode);
      return { kind: 'done' };
    }
    case 'reports':
      return { kind: 'reports', reports: reports.slice(ask.from) };
    case 'cpu': {
      const used = process.cpuUsage();
      return { kind: 'cpu', ms: (used.user + used.system) / 1000 };
    }
    case 'close':
      await fake?.close();
      return { kind: 'closed' };
  }
}

process.on('message', (msg: { id: number; ask: FakeAsk }) => {
  answer(msg.ask).then(
    (reply) => process.send!({ id: msg.id, reply }, () => (msg.ask.kind === 'close' ? process.exit(0) : undefined)),
    (err: unknown) => process.send!({ id: msg.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
// The bench went away (crash, Ctrl-C): nobody is left to ask.
process.once('disconnect', () => process.exit(1));
