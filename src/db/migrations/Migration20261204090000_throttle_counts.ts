import { Migration } from '@mikro-orm/migrations';

/**
 * Throttle counts shared by every API process (src/services/throttles): rate-limiter-flexible's
 * Postgres store table, created here instead of by the library at runtime; `expire` is indexed
 * for the hourly retention purge.
 */
export class Migration20261204090000_throttle_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "throttle_counts" ("key" varchar(255) not null, "points" int not null default 0, "expire" bigint null, constraint "throttle_counts_pkey" primary key ("key"));`,
    );
    this.addSql(`create index "throttle_counts_expire_index" on "throttle_counts" ("expire");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "throttle_counts" cascade;`);
  }
}
