import { Migration } from '@mikro-orm/migrations';

/**
 * A sender may acknowledge (PagerDuty's `acknowledge` event, Opsgenie's acknowledge action,
 * docs/compat-intake.md): the outbox carries it to the incident's workflow as a message of kind
 * `acknowledged` (the column already takes any kind), and `ingest_outbox.detail` says how the
 * sender asked ("via PagerDuty Events API"), for the timeline entry the move writes.
 */
export class Migration20261207090000_sender_acknowledge extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ingest_outbox" add column "detail" varchar(200) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ingest_outbox" drop column "detail";`);
  }
}
