/** What the monitoring page reads from /api (docs/api/services-sources-heartbeats.md, monitors.md, status-and-notifications.md). */

export interface Service {
  id: string;
  name: string;
}

/** A heartbeat as reads show it: the server's own type (src/services/ingest/heartbeats.ts). */
export type { HeartbeatJson as Heartbeat } from '../../../src/services/ingest/heartbeats';
import type { HeartbeatJson as Heartbeat } from '../../../src/services/ingest/heartbeats';

/** POST /api/heartbeats answers the heartbeat with its ping URL, shown this once. */
export interface CreatedHeartbeat extends Omit<Heartbeat, 'last_ping_at' | 'created_at'> {
  ping_url: string;
}

export type MonitorMethod = 'GET' | 'HEAD' | 'POST';

export interface Monitor {
  id: string;
  service_id: string;
  name: string;
  url: string;
  method: MonitorMethod;
  interval_seconds: number;
  timeout_seconds: number;
  expected_status_codes: number[] | null;
  keyword: string | null;
  failure_threshold: number;
  status: 'ACTIVE' | 'PAUSED';
  state: 'PENDING' | 'UP' | 'DOWN' | 'PAUSED';
  consecutive_failures: number;
  last_checked_at: string | null;
  last_check: { checked_at: string; ok: boolean; status_code: number | null; latency_ms: number | null; error: string | null } | null;
  uptime_24h: number | null;
  open_incident_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Per rolling window and per 24-hour block: the server's own types (src/services/status/uptime-math.ts, pure). */
export type { Availability, DailyAvailability } from '../../../src/services/status/uptime-math';
import type { Availability, DailyAvailability } from '../../../src/services/status/uptime-math';

/** A monitor's or heartbeat's figures: per rolling window, and per 24 hours for the bar. */
export interface UptimeFigures {
  availability: Availability;
  daily: DailyAvailability[];
}

/** GET /api/uptime: availability per monitor and heartbeat over 24 h, 7 d and 30 d, and per day over 30 days. */
export interface UptimeView {
  process_uptime_seconds: number;
  system_uptime_seconds: number;
  monitors: Array<{ id: string; name: string; status: string; checks_30d: number } & UptimeFigures>;
  heartbeats: Array<{ id: string; name: string; paused: boolean } & UptimeFigures>;
}
