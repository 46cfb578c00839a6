/**
 * The Twilio wire fake in a process of its own (bench/paging/twilio.ts drives it over IPC): its
 * arrival times are not delayed by the event loop of the stack it measures, and its CPU time is
 * counted apart from the stack's.
 */
import { startTwilioFake, type TwilioFake } from '../../src/integrations/twilio/testing/wire-fake';
import type { FakeAnswer, FakeAsk } from './twilio';

let fake: TwilioFake | undefined;

async function answer(ask: FakeAsk): Promise<FakeAnswer> {
  switch (ask.kind) {
    case 'start':
      fake = await startTwilioFake(ask.account);
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
