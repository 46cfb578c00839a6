import { Migration } from '@mikro-orm/migrations';

export class Migration20261123051602_heartbeats extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "heartbeats" ("id" uuid not null, "organization_id" uuid not null, "service_id" uuid not null, "name" varchar(255) not null, "token_hash" varchar(64) not null, "period_seconds" int not null, "grace_seconds" int not null, "status" varchar(16) not null, "last_ping_at" timestamptz null, "created_at" timestamptz not null, constraint "heartbeats_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "heartbeats_organization_id_index" on "heartbeats" ("organization_id");`);
    this.addSql(`create index "heartbeats_service_id_index" on "heartbeats" ("service_id");`);
    this.addSql(`alter table "heartbeats" add constraint "heartbeats_token_hash_unique" unique ("token_hash");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "heartbeats" cascade;`);
  }
}
