import { Migration } from '@mikro-orm/migrations';

/**
 * Pages sent once as far as we can know (docs/architecture.md, "Paging"), and paging decisions on the timeline
 * (§4): each page counts the attempts that claimed it and those that went out while an earlier
 * one's outcome was unknown; timeline entries carry structured data the UI renders.
 */
export class Migration20261127101500_pages extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "notifications" add column "attempts" int not null default 0, add column "unknown_outcome_retries" int not null default 0;`);
    this.addSql(`alter table "timeline_entries" add column "data" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "timeline_entries" drop column "data";`);
    this.addSql(`alter table "notifications" drop column "attempts", drop column "unknown_outcome_retries";`);
  }
}
