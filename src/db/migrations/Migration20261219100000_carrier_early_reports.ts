import { Migration } from '@mikro-orm/migrations';

/**
 * A carrier's delivery report that came before Klaxon recorded the carrier's answer to the send
 * (docs/reliability.md, "Carriers"): kept until that answer is recorded, which takes it, so a
 * failure reported at once still fails the page over at once. Purged after a day if never taken.
 */
export class Migration20261219100000_carrier_early_reports extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "carrier_early_reports" ("provider_message_id" text not null, "status" text not null, "error" text null, "received_at" timestamptz not null, constraint "carrier_early_reports_pkey" primary key ("provider_message_id"));`,
    );
    this.addSql(`create index "carrier_early_reports_received_at_index" on "carrier_early_reports" ("received_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "carrier_early_reports";`);
  }
}
