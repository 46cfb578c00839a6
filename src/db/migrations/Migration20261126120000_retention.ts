import { Migration } from '@mikro-orm/migrations';

/** Indexes the retention purge reads by: CLOSED incidents by close time, delivered outbox rows, an incident's in-app notifications. */
export class Migration20261126120000_retention extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "incidents_closed_at_idx" on "incidents" ("organization_id", "closed_at") where "status" = 'CLOSED';`);
    this.addSql(`create index "ingest_outbox_delivered_idx" on "ingest_outbox" ("delivered_at") where "delivered_at" is not null;`);
    this.addSql(`create index "user_notifications_incident_id_index" on "user_notifications" ("incident_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "incidents_closed_at_idx";`);
    this.addSql(`drop index "ingest_outbox_delivered_idx";`);
    this.addSql(`drop index "user_notifications_incident_id_index";`);
  }
}
