import { Migration } from '@mikro-orm/migrations';

/**
 * Every alert source gets a routing key (docs/compat-intake.md): 32 lowercase hex, the
 * `routing_key` of PagerDuty's Events API v2 and the `GenieKey` of Opsgenie's Alert API. Existing
 * sources are given one here (gen_random_uuid draws from the server's strong random source);
 * new ones get theirs from the service layer. Stored as-is: every surface shows it, as PagerDuty
 * shows integration keys (docs/security.md, "Routing keys").
 */
export class Migration20261206090000_source_routing_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "alert_sources" add column "routing_key" varchar(32) null;`);
    this.addSql(`update "alert_sources" set "routing_key" = replace(gen_random_uuid()::text, '-', '') where "routing_key" is null;`);
    this.addSql(`alter table "alert_sources" alter column "routing_key" set not null;`);
    this.addSql(`alter table "alert_sources" add constraint "alert_sources_routing_key_unique" unique ("routing_key");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "alert_sources" drop constraint "alert_sources_routing_key_unique";`);
    this.addSql(`alter table "alert_sources" drop column "routing_key";`);
  }
}
