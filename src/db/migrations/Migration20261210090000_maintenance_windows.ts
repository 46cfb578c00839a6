import { Migration } from '@mikro-orm/migrations';

/**
 * Maintenance windows (docs/maintenance-windows.md): a span of time during which incidents of
 * the listed services page nobody. The services are an array (at most 100, checked by the API),
 * searched by a GIN index when an escalation asks whether its service is held. Ending one early
 * moves `ends_at` to the moment it was ended and sets `ended_early_at`. No foreign keys, like the
 * other tables: a deleted service simply matches no incident any more.
 */
export class Migration20261210090000_maintenance_windows extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "maintenance_windows" ("id" uuid not null, "organization_id" uuid not null, "service_ids" uuid[] not null, "starts_at" timestamptz not null, "ends_at" timestamptz not null, "reason" varchar(500) not null, "ended_early_at" timestamptz null, "created_by" uuid null, "created_at" timestamptz not null, constraint "maintenance_windows_pkey" primary key ("id"), constraint "maintenance_windows_span_check" check ("starts_at" < "ends_at"));`,
    );
    this.addSql(`create index "maintenance_windows_service_ids_index" on "maintenance_windows" using gin ("service_ids");`);
    this.addSql(`create index "maintenance_windows_organization_id_ends_at_index" on "maintenance_windows" ("organization_id", "ends_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "maintenance_windows" cascade;`);
  }
}
