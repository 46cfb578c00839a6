import { Migration } from '@mikro-orm/migrations';

export class Migration20261123160000_provider_callbacks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "provider_callbacks" ("key" varchar(255) not null, "received_at" timestamptz not null, constraint "provider_callbacks_pkey" primary key ("key"));`,
    );
    this.addSql(`create index "provider_callbacks_received_at_index" on "provider_callbacks" ("received_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "provider_callbacks" cascade;`);
  }
}
