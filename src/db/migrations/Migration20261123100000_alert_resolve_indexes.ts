import { Migration } from '@mikro-orm/migrations';

export class Migration20261123100000_alert_resolve_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "alerts_active_source_key_idx" on "alerts" ("source_id", "dedup_key") where "status" = 'ACTIVE';`);
    this.addSql(`create index "alerts_active_incident_idx" on "alerts" ("incident_id") where "status" = 'ACTIVE';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "alerts_active_source_key_idx";`);
    this.addSql(`drop index "alerts_active_incident_idx";`);
  }
}
