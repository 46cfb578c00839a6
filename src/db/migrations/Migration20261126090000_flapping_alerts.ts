import { Migration } from '@mikro-orm/migrations';

/**
 * Flapping senders and late events (issue 11):
 * - `incidents.alerts_closed_at`: ingestion queued the resolve of the incident's last active
 *   alert, so a new firing of its key opens a new incident instead of joining one about to resolve.
 * - `timeline_entries.event_id`: the alert event an entry applied, so a run started after the
 *   incident's workflow completed knows which events it must not apply again.
 * - `ingest_outbox.incident_seq`: the incident's last seq when a resolve was accepted, so a resolve
 *   accepted before a reopen cannot resolve the reopened incident.
 */
export class Migration20261126090000_flapping_alerts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "incidents" add column "alerts_closed_at" timestamptz null;`);
    this.addSql(`alter table "timeline_entries" add column "event_id" uuid null;`);
    this.addSql(`alter table "ingest_outbox" add column "incident_seq" int null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ingest_outbox" drop column "incident_seq";`);
    this.addSql(`alter table "timeline_entries" drop column "event_id";`);
    this.addSql(`alter table "incidents" drop column "alerts_closed_at";`);
  }
}
