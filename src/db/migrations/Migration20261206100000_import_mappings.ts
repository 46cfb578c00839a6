import { Migration } from '@mikro-orm/migrations';

/**
 * What `klaxon import pagerduty|opsgenie` brought in (docs/importers.md): one row per imported
 * object, keyed by its id in the source system, so a re-run updates what it made instead of
 * making it again. `klaxon_id` is the row it became (a user, team, schedule, policy, service,
 * source or schedule override). Like the other tables, no foreign keys: an object deleted in
 * Klaxon leaves its row, and the next import makes it again.
 */
export class Migration20261206100000_import_mappings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "import_mappings" (
      "id" uuid not null,
      "organization_id" uuid not null,
      "system" varchar(16) not null,
      "kind" varchar(32) not null,
      "external_id" varchar(255) not null,
      "klaxon_id" uuid not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "import_mappings_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "import_mappings" add constraint "import_mappings_organization_id_system_kind_external_id_unique" unique ("organization_id", "system", "kind", "external_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "import_mappings" cascade;`);
  }
}
