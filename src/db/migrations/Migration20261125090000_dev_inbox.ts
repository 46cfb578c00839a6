import { Migration } from '@mikro-orm/migrations';

/**
 * The dev outbox becomes the dev inbox: "outbox" is the ingestion outbox (ingest_outbox). Its
 * table is renamed with its key and index, and pages it kept are recorded under the new provider key.
 */
export class Migration20261125090000_dev_inbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "dev_outbox" rename to "dev_deliveries";`);
    this.addSql(`alter table "dev_deliveries" rename constraint "dev_outbox_pkey" to "dev_deliveries_pkey";`);
    this.addSql(`alter index "dev_outbox_created_at_index" rename to "dev_deliveries_created_at_index";`);
    this.addSql(`update "notifications" set "provider" = 'dev_inbox' where "provider" = 'dev_outbox';`);
  }

  override async down(): Promise<void> {
    this.addSql(`update "notifications" set "provider" = 'dev_outbox' where "provider" = 'dev_inbox';`);
    this.addSql(`alter index "dev_deliveries_created_at_index" rename to "dev_outbox_created_at_index";`);
    this.addSql(`alter table "dev_deliveries" rename constraint "dev_deliveries_pkey" to "dev_outbox_pkey";`);
    this.addSql(`alter table "dev_deliveries" rename to "dev_outbox";`);
  }
}
