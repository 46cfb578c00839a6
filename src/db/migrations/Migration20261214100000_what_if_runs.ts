import { Migration } from '@mikro-orm/migrations';

/**
 * What-if replays running now (docs/what-if.md, "Bounds"): one row each while it runs, at most two
 * per workspace across every API process; a row past `expires_at` (its process died) no longer
 * counts. One writer: src/services/paging/what-if-slots.ts.
 */
export class Migration20261214100000_what_if_runs extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "what_if_runs" ("id" uuid not null, "organization_id" uuid not null, "started_at" timestamptz not null, "expires_at" timestamptz not null, constraint "what_if_runs_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "what_if_runs_organization_id_index" on "what_if_runs" ("organization_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "what_if_runs" cascade;`);
  }
}
