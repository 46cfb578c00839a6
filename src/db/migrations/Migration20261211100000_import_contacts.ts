import { Migration } from '@mikro-orm/migrations';

/**
 * An import pages the same people on the same phones (docs/importers.md): a contact method says
 * where it came from (`source`: `import` when an import brought it in, null when made in Klaxon),
 * so readiness can tell one nobody has confirmed in Klaxon yet; and `import_left_out` keeps, per
 * workspace and system, the places (a rotation, an escalation step) a person the last import had
 * to invite instead of adding was left out of, for readiness to show until they join. No foreign
 * keys, like the other tables.
 */
export class Migration20261211100000_import_contacts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "contact_methods" add column "source" varchar(16) null;`);
    this.addSql(`create table "import_left_out" (
      "id" uuid not null,
      "organization_id" uuid not null,
      "system" varchar(16) not null,
      "external_id" varchar(255) not null,
      "email" varchar(320) not null,
      "schedule_id" uuid null,
      "policy_id" uuid null,
      "place" varchar(600) not null,
      "created_at" timestamptz not null,
      constraint "import_left_out_pkey" primary key ("id"));`);
    this.addSql(`create index "import_left_out_organization_id_system_index" on "import_left_out" ("organization_id", "system");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "import_left_out" cascade;`);
    this.addSql(`alter table "contact_methods" drop column "source";`);
  }
}
