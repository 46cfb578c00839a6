import type { MikroORM } from '@mikro-orm/postgresql';
import { Client as PgClient } from 'pg';
import { knexOf } from '../../db/knex';
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
const RECONNECT_MS = 2_000;

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
  private client: PgClient | undefined;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly relay: { kick(opts?: { onlyIfDue?: boolean }): void },
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new PgClient({ connectionString: this.databaseUrl, application_name: 'klaxon-relay-wakeups' });
    client.on('notification', (msg) => this.relay.kick({ onlyIfDue: msg.payload !== URGENT }));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${OUTBOX_CHANNEL}`);
      if (this.stopped) return void (await client.end());
      this.client = client;
      // Rows accepted while nobody listened: the sweep would find them, a kick finds them now.
      this.relay.kick();
    } catch (err) {
      this.lost(client, err as Error);
    }
  }

  private lost(client: PgClient, err?: Error): void {
    if (this.client === client) this.client = undefined;
    client.removeAllListeners();
    client.end().catch(() => undefined);
    if (this.stopped || this.timer) return;
    if (err) this.logger.warn({ err: err.message }, 'outbox wake-ups: the LISTEN connection was lost; reconnecting (the sweep delivers meanwhile)');
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) void this.connect();
    }, RECONNECT_MS);
    this.timer.unref();
  }
}
