import { Migration } from '@mikro-orm/migrations';

/** Response-time histograms per HTTP surface and minute, summed over processes (/api/response-time). */
export class Migration20261201100200_request_metrics extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "request_metrics" ("surface" varchar(16) not null, "minute" timestamptz not null, "le_ms" int not null, "count" int not null, "sum_ms" double precision not null, constraint "request_metrics_pkey" primary key ("surface", "minute", "le_ms"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "request_metrics" cascade;`);
  }
}
