import { Migration } from '@mikro-orm/migrations';

/**
 * Drill SMS and calls count against the plan's monthly quotas (docs/drills.md, "What counts"):
 * `drill_results.counted_at` is set when a send is claimed against the quota, and the month's
 * count reads the person's results by channel and time (the index). Sends already delivered are
 * counted from now on, at the time they went.
 */
export class Migration20261214090000_drill_quota extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "drill_results" add column "counted_at" timestamptz null;`);
    this.addSql(`create index "drill_results_user_id_channel_created_at_index" on "drill_results" ("user_id", "channel", "created_at");`);
    this.addSql(
      `update "drill_results" set "counted_at" = coalesce("delivered_at", "created_at") where "status" = 'delivered' and "channel" in ('sms', 'voice');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "drill_results_user_id_channel_created_at_index";`);
    this.addSql(`alter table "drill_results" drop column if exists "counted_at";`);
  }
}
