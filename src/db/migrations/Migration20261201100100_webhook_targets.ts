import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook targets (issue 14): whom each of a webhook's channels reaches, an address or a member
 * (`{"sms": {"address": "+14155550100"}, "email": {"user_id": "…"}}`); null: the owning team.
 */
export class Migration20261201100100_webhook_targets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "alert_sources" add column "target_channels" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "alert_sources" drop column "target_channels";`);
  }
}
