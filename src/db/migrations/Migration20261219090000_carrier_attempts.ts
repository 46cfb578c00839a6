import { Migration } from '@mikro-orm/migrations';

/**
 * Carrier attempts (docs/reliability.md, "Carriers"): one row per carrier a phone page (SMS, voice)
 * went to, with what that carrier did with it (refused, took it, delivered, failed). The page's own
 * row (`notifications`) keeps one outcome; these rows say which carriers were tried and why the
 * next one was, and the circuit breaker counts them. They are purged with their incident.
 */
export class Migration20261219090000_carrier_attempts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "carrier_attempts" ("id" uuid not null, "notification_id" uuid not null, "incident_id" uuid not null, "carrier" text not null, "channel" text not null, "provider_message_id" text null, "status" text not null, "error" text null, "created_at" timestamptz not null, "settled_at" timestamptz null, constraint "carrier_attempts_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "carrier_attempts_notification_id_index" on "carrier_attempts" ("notification_id");`);
    this.addSql(`create index "carrier_attempts_incident_id_index" on "carrier_attempts" ("incident_id");`);
    this.addSql(`create index "carrier_attempts_carrier_created_at_index" on "carrier_attempts" ("carrier", "created_at");`);
    this.addSql(
      `create index "carrier_attempts_provider_message_id_index" on "carrier_attempts" ("provider_message_id") where "provider_message_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "carrier_attempts";`);
  }
}
