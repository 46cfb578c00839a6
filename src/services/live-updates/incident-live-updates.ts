import { Client as PgClient } from 'pg';
import type { Logger } from '../../logger';

/**
 * What the dashboard hears live: an incident opened or changed status. A hint over NOTIFY, lost
 * when nobody listens; the durable record of changes is the incident-event feed (docs/integrations.md).
 */
export interface IncidentLiveUpdate {
  type: 'incident';
  organization_id: string;
  id: string;
  number: number;
  status: string;
}

type Listener = (event: IncidentLiveUpdate) => void;

const CHANNEL = 'klaxon_events';
const RECONNECT_MS = 2_000;

/**
 * One LISTEN connection per API process (fed by the incidents triggers), fanned out to the
 * dashboard's open event streams of each workspace. Reconnects by itself when Postgres goes
 * away; streams stay open meanwhile and the page refetches when told `reconnected`.
 */
export class IncidentLiveUpdates {
  private client: PgClient | undefined;
  private readonly byWorkspace = new Map<string, Set<Listener>>();
  private readonly onReconnect = new Set<() => void>();
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger?: Logger,
  ) {}

  /** Listens to one workspace's events until the returned function is called. */
  subscribe(organizationId: string, listener: Listener, onReconnect?: () => void): () => void {
    if (!this.client && !this.timer && !this.stopped) void this.connect();
    const set = this.byWorkspace.get(organizationId) ?? new Set();
    set.add(listener);
    this.byWorkspace.set(organizationId, set);
    if (onReconnect) this.onReconnect.add(onReconnect);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.byWorkspace.delete(organizationId);
      if (onReconnect) this.onReconnect.delete(onReconnect);
    };
  }

  /** True once the LISTEN connection is up (tests wait for it). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new PgClient({ connectionString: this.databaseUrl, application_name: 'klaxon-events' });
    client.on('notification', (msg) => this.deliver(msg.payload));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      if (this.stopped) return void (await client.end());
      const wasDown = this.client === undefined && this.hadClient;
      this.client = client;
      this.hadClient = true;
      if (wasDown) for (const f of this.onReconnect) f();
    } catch (err) {
      this.lost(client, err as Error);
    }
  }

  private hadClient = false;

  private lost(client: PgClient, err?: Error): void {
    if (this.client === client) this.client = undefined;
    client.removeAllListeners();
    client.end().catch(() => undefined);
    if (this.stopped || this.timer) return;
    if (err) this.logger?.warn({ err: err.message }, 'live incident events: the LISTEN connection was lost; reconnecting');
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) void this.connect();
    }, RECONNECT_MS);
    this.timer.unref();
  }

  private deliver(payload: string | undefined): void {
    if (!payload) return;
    let event: IncidentLiveUpdate;
    try {
      event = JSON.parse(payload) as IncidentLiveUpdate;
    } catch {
      return;
    }
    for (const listener of this.byWorkspace.get(event.organization_id) ?? []) listener(event);
  }
}
