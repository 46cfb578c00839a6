import { PgListenConnection } from '../../db/pg-listen';
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

/**
 * One LISTEN connection per API process (fed by the incidents triggers), fanned out to the
 * dashboard's open event streams of each workspace. Reconnects by itself when Postgres goes
 * away; streams stay open meanwhile and the page refetches when told `reconnected`.
 */
export class IncidentLiveUpdates {
  private readonly connection: PgListenConnection;
  private readonly byWorkspace = new Map<string, Set<Listener>>();
  private readonly onReconnect = new Set<() => void>();

  constructor(databaseUrl: string, logger?: Logger) {
    this.connection = new PgListenConnection({
      databaseUrl,
      channel: CHANNEL,
      applicationName: 'klaxon-events',
      onNotification: (payload) => this.deliver(payload),
      onListening: (reconnected) => {
        if (reconnected) for (const f of this.onReconnect) f();
      },
      logger,
      lostMessage: 'live incident events: the LISTEN connection was lost; reconnecting',
    });
  }

  /** Listens to one workspace's events until the returned function is called. */
  subscribe(organizationId: string, listener: Listener, onReconnect?: () => void): () => void {
    void this.connection.start();
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
    return this.connection.listening;
  }

  stop(): Promise<void> {
    return this.connection.stop();
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
