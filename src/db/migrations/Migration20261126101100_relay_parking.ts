import { Migration } from '@mikro-orm/migrations';

/**
 * Outbox messages that keep failing back off (`next_attempt_at`) and are then parked
 * (`parked_at`, a dead letter) instead of being retried at the head of the queue. The pending
 * index leaves parked rows out, so the relay's claim never walks past them; a second one per
 * incident lets the claim find an incident's earlier undelivered rows cheaply; backing-off and
 * parked rows get small indexes of their own (nearly always empty).
 */
export class Migration20261126101100_relay_parking extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ingest_outbox" add column "next_attempt_at" timestamptz null, add column "parked_at" timestamptz null;`);
    this.addSql(`drop index "ingest_outbox_pending_idx";`);
    this.addSql(`create index "ingest_outbox_pending_idx" on "ingest_outbox" ("seq") where "delivered_at" is null and "parked_at" is null;`);
    this.addSql(
      `create index "ingest_outbox_pending_incident_idx" on "ingest_outbox" ("incident_id", "seq") where "delivered_at" is null and "parked_at" is null;`,
    );
    this.addSql(
      `create index "ingest_outbox_backing_off_idx" on "ingest_outbox" ("incident_id", "seq") where "delivered_at" is null and "parked_at" is null and "next_attempt_at" is not null;`,
    );
    this.addSql(`create index "ingest_outbox_parked_idx" on "ingest_outbox" ("seq") where "parked_at" is not null and "delivered_at" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "ingest_outbox_parked_idx";`);
    this.addSql(`drop index "ingest_outbox_backing_off_idx";`);
    this.addSql(`drop index "ingest_outbox_pending_incident_idx";`);
    this.addSql(`drop index "ingest_outbox_pending_idx";`);
    this.addSql(`create index "ingest_outbox_pending_idx" on "ingest_outbox" ("seq") where "delivered_at" is null;`);
    this.addSql(`alter table "ingest_outbox" drop column "parked_at", drop column "next_attempt_at";`);
  }
}
