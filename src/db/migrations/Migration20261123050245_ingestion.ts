import { Migration } from '@mikro-orm/migrations';

export class Migration20261123050245_ingestion extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "alerts" ("id" uuid not null, "organization_id" uuid not null, "source_id" uuid not null, "service_id" uuid not null, "incident_id" uuid not null, "dedup_key" varchar(255) null, "title" varchar(255) not null, "message" text null, "description" text null, "severity" varchar(16) not null, "status" varchar(16) not null, "sender" varchar(32) not null, "metadata" jsonb not null, "created_at" timestamptz not null, "resolved_at" timestamptz null, constraint "alerts_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "alerts_organization_id_index" on "alerts" ("organization_id");`);
    this.addSql(`create index "alerts_source_id_index" on "alerts" ("source_id");`);
    this.addSql(`create index "alerts_incident_id_index" on "alerts" ("incident_id");`);
    this.addSql(`create index "alerts_service_id_dedup_key_index" on "alerts" ("service_id", "dedup_key");`);

    this.addSql(
      `create table "idempotency_records" ("source_id" uuid not null, "key" varchar(255) not null, "fingerprint" varchar(64) not null, "event_id" uuid not null, "incident_id" uuid not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, constraint "idempotency_records_pkey" primary key ("source_id", "key"));`,
    );
    this.addSql(`create index "idempotency_records_expires_at_index" on "idempotency_records" ("expires_at");`);

    this.addSql(
      `create table "ingest_outbox" ("id" uuid not null, "incident_id" uuid not null, "event_id" uuid not null, "kind" varchar(16) not null, "attempts" int not null default 0, "last_error" text null, "created_at" timestamptz not null, "delivered_at" timestamptz null, constraint "ingest_outbox_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "ingest_outbox_incident_id_index" on "ingest_outbox" ("incident_id");`);
    this.addSql(`create index "ingest_outbox_pending_idx" on "ingest_outbox" ("created_at") where "delivered_at" is null;`);

    this.addSql(`create index "incidents_service_id_dedup_key_index" on "incidents" ("service_id", "dedup_key");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "alerts" cascade;`);

    this.addSql(`drop table if exists "idempotency_records" cascade;`);

    this.addSql(`drop table if exists "ingest_outbox" cascade;`);

    this.addSql(`drop index "incidents_service_id_dedup_key_index";`);
  }
}
