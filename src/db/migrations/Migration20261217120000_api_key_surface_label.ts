import { Migration } from '@mikro-orm/migrations';

/**
 * The API-key surface's response-time rows move from the label `legacy` to `api-key`
 * (src/services/status/request-metrics.ts), adding into any `api-key` row a newer process already
 * wrote for the same minute, so /api/response-time keeps the history.
 */
export class Migration20261217120000_api_key_surface_label extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `insert into "request_metrics" ("surface", "minute", "le_ms", "count", "sum_ms")
       select 'api-key', "minute", "le_ms", "count", "sum_ms" from "request_metrics" where "surface" = 'legacy'
       on conflict ("surface", "minute", "le_ms") do update set "count" = "request_metrics"."count" + excluded."count", "sum_ms" = "request_metrics"."sum_ms" + excluded."sum_ms";`,
    );
    this.addSql(`delete from "request_metrics" where "surface" = 'legacy';`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `insert into "request_metrics" ("surface", "minute", "le_ms", "count", "sum_ms")
       select 'legacy', "minute", "le_ms", "count", "sum_ms" from "request_metrics" where "surface" = 'api-key'
       on conflict ("surface", "minute", "le_ms") do update set "count" = "request_metrics"."count" + excluded."count", "sum_ms" = "request_metrics"."sum_ms" + excluded."sum_ms";`,
    );
    this.addSql(`delete from "request_metrics" where "surface" = 'api-key';`);
  }
}
