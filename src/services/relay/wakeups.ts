import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { PgListenConnection } from '../../db/pg-listen';
import type { Logger } from '../../logger';

/**
 * How an API process without a relay of its own (OUTBOX_RELAY=off) wakes the `klaxon relay`
 * processes: a NOTIFY after accepted events, as the in-process relay is kicked. A hint only:
 * lost when no relay listens, and the relay's sweep finds the rows anyway. Sent on its own
 * after the ingest transaction, never inside it: NOTIFY serialises the commits it is part of.
 */
export const OUTBOX_CHANNEL = 'klaxon_outbox';
/** The payload of an urgent wake-up (an incident opens or resolves): the relay goes at once. */
const URGENT = 'urgent';

/** The API's side: `kick` as the relay's own, one NOTIFY in flight at a time, kicks meanwhile folded into the next. */
export class OutboxNotifier {
  private sending = false;
  /** A kick came during a send: urgent if any of them was. */
  private pending: { urgent: boolean } | undefined;

  constructor(
    private readonly orm: MikroORM,
    private readonly logger: Logger,
  ) {}

  kick(opts: { onlyIfDue?: boolean } = {}): void {
    const urgent = !opts.onlyIfDue;
    if (this.sending) {
      this.pending = { urgent: urgent || !!this.pending?.urgent };
      return;
    }
    this.sending = true;
    void knexOf(this.orm)
      .raw('select pg_notify(?, ?)', [OUTBOX_CHANNEL, urgent ? URGENT : 'due'])
      .catch((err: unknown) => this.logger.warn({ err }, 'outbox wake-up could not be sent; the relay sweep delivers the rows'))
      .finally(() => {
        this.sending = false;
        const next = this.pending;
        this.pending = undefined;
        if (next) this.kick({ onlyIfDue: !next.urgent });
      });
  }
}

/** The relay role's side: one LISTEN connection; every wake-up kicks the relay. Reconnects by itself. */
export class OutboxListener {
  private readonly connection: PgListenConnection;

  constructor(databaseUrl: string, relay: { kick(opts?: { onlyIfDue?: boolean }): void }, logger: Logger) {
    this.connection = new PgListenConnection({
      databaseUrl,
      channel: OUTBOX_CHANNEL,
      applicationName: 'klaxon-relay-wakeups',
      onNotification: (payload) => relay.kick({ onlyIfDue: payload !== URGENT }),
      // Rows accepted while nobody listened: the sweep would find them, a kick finds them now.
      onListening: () => relay.kick(),
      logger,
      lostMessage: 'outbox wake-ups: the LISTEN connection was lost; reconnecting (the sweep delivers meanwhile)',
    });
  }

  start(): Promise<void> {
    return this.connection.start();
  }

  stop(): Promise<void> {
    return this.connection.stop();
  }
}
