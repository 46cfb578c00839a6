import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes for reads that scanned whole tables: reports count a workspace's pages over a date
 * range, the status page finds each channel's newest failed and newest sent page of a
 * workspace, and retention deletes monitor checks by age across every monitor.
 */
export class Migration20261203090000_workspace_page_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "notifications_organization_id_created_at_index" on "notifications" ("organization_id", "created_at");`);
    this.addSql(
      `create index "notifications_organization_id_channel_status_updated_at_index" on "notifications" ("organization_id", "channel", "status", "updated_at");`,
    );
    this.addSql(`create index "monitor_checks_checked_at_index" on "monitor_checks" ("checked_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "monitor_checks_checked_at_index";`);
    this.addSql(`drop index "notifications_organization_id_channel_status_updated_at_index";`);
    this.addSql(`drop index "notifications_organization_id_created_at_index";`);
  }
}
