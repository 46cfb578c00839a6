import { openOrm, type MikroORM } from '../../../src/db/orm';
import { createLogger } from '../../../src/logger';
import { OutboxListener, OutboxNotifier } from '../../../src/services/relay/wakeups';
import { sleep, waitFor } from '../../support/wait';

/**
 * `klaxon api` with OUTBOX_RELAY=off wakes `klaxon relay` over NOTIFY: a kick in the API becomes
 * a kick of the relay, urgent or only-if-due as it was given.
 */
let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
});
afterAll(() => orm.close());

describe('outbox wake-ups', () => {
  it('kicks the listening relay once on connecting, then once per notify, folding kicks sent while one is in flight', async () => {
    const kicks: Array<{ onlyIfDue?: boolean }> = [];
    const logger = createLogger('silent');
    const listener = new OutboxListener(process.env.KLAXON_TEST_DATABASE_URL!, { kick: (opts = {}) => kicks.push(opts) }, logger);
    await listener.start();
    try {
      // Rows accepted while nobody listened: a kick on connecting.
      expect(kicks).toEqual([{}]);
      const notifier = new OutboxNotifier(orm, logger);
      notifier.kick({ onlyIfDue: true });
      await waitFor(async () => kicks.length === 2, 10_000, 'the due wake-up');
      expect(kicks[1]).toEqual({ onlyIfDue: true });

      // Three at once: the first goes, the other two fold into one, urgent since one of them was.
      notifier.kick({ onlyIfDue: true });
      notifier.kick({ onlyIfDue: false });
      notifier.kick({ onlyIfDue: true });
      await waitFor(async () => kicks.length === 4, 10_000, 'the folded wake-ups');
      await sleep(300);
      expect(kicks.slice(2)).toEqual([{ onlyIfDue: true }, { onlyIfDue: false }]);
    } finally {
      await listener.stop();
    }
  });
});
