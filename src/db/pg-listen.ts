import { Client as PgClient } from 'pg';
import type { Logger } from '../logger';

const RECONNECT_MS = 2_000;

export interface PgListenOptions {
  databaseUrl: string;
  /** A channel name of ours (a constant): LISTEN takes an identifier, not a parameter. */
  channel: string;
  /** Shown in pg_stat_activity. */
  applicationName: string;
  onNotification(payload: string | undefined): void;
  /** After each successful LISTEN; `reconnected` once an earlier connection had been up and was lost. */
  onListening?(reconnected: boolean): void;
  logger?: Logger;
  /** What the warning says when the connection is lost. */
  lostMessage: string;
}

/**
 * One LISTEN connection that reconnects by itself every 2 s while Postgres is away. NOTIFY is a
 * hint (lost when nobody listens): whoever uses this has a durable way to catch up, which
 * onListening is the moment to use.
 */
export class PgListenConnection {
  private client: PgClient | undefined;
  private connecting = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private hadClient = false;

  constructor(private readonly opts: PgListenOptions) {}

  /** True once the LISTEN is up. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Connects unless connected, connecting, waiting to reconnect or stopped. */
  async start(): Promise<void> {
    if (this.client || this.connecting || this.timer || this.stopped) return;
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
    const client = new PgClient({ connectionString: this.opts.databaseUrl, application_name: this.opts.applicationName });
    client.on('notification', (msg) => this.opts.onNotification(msg.payload));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    this.connecting = true;
    try {
      await client.connect();
      await client.query(`listen ${this.opts.channel}`);
      if (this.stopped) return void (await client.end());
      const reconnected = this.hadClient;
      this.client = client;
      this.hadClient = true;
      this.opts.onListening?.(reconnected);
    } catch (err) {
      this.lost(client, err as Error);
    } finally {
      this.connecting = false;
    }
  }

  private lost(client: PgClient, err?: Error): void {
    if (this.client === client) this.client = undefined;
    client.removeAllListeners();
    client.end().catch(() => undefined);
    if (this.stopped || this.timer) return;
    if (err) this.opts.logger?.warn({ err: err.message }, this.opts.lostMessage);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) void this.connect();
    }, RECONNECT_MS);
    this.timer.unref();
  }
}
