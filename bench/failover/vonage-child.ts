/**
 * The Vonage wire fake in a process of its own (vonage.ts drives it over IPC): when it records an
 * SMS is not delayed by the event loop of the stack it measures.
 */
import { startVonageFake, type VonageFake } from '../../src/integrations/vonage/testing/wire-fake';
import type { VonageAnswer, VonageAsk } from './vonage';

let fake: VonageFake | undefined;

async function answer(ask: VonageAsk): Promise<VonageAnswer> {
  switch (ask.kind) {
    case 'start':
      fake = await startVonageFake(ask.account);
      return { kind: 'started', url: fake.url };
    case 'messages': {
      const messages = fake!
        .messages()
        .slice(ask.from)
        .map((m) => ({ to: String(m.body.to), text: String(m.body.text), at: m.at }));
      return { kind: 'messages', messages };
    }
    case 'close':
      await fake?.close();
      return { kind: 'closed' };
  }
}

process.on('message', (msg: { id: number; ask: VonageAsk }) => {
  answer(msg.ask).then(
    (reply) => process.send!({ id: msg.id, reply }, () => (msg.ask.kind === 'close' ? process.exit(0) : undefined)),
    (err: unknown) => process.send!({ id: msg.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
// The bench went away (crash, Ctrl-C): nobody is left to ask.
process.once('disconnect', () => process.exit(1));
