import { Migration } from '@mikro-orm/migrations';

export class Migration20261123120000_outbox_order extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ingest_outbox" add column "seq" bigserial;`);
    this.addSql(`drop index "ingest_outbox_pending_idx";`);
    this.addSql(`create index "ingest_outbox_pending_idx" on "ingest_outbox" ("seq") where "delivered_at" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "ingest_outbox_pending_idx";`);
    this.addSql(`create index "ingest_outbox_pending_idx" on "ingest_outbox" ("created_at") where "delivered_at" is null;`);
    this.addSql(`alter table "ingest_outbox" drop column "seq";`);
  }
}
