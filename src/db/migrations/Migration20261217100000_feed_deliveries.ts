import { Migration } from '@mikro-orm/migrations';

/**
 * One delivery queue for every consumer of the incident-event feed (docs/integrations.md, "The
 * delivery queue"): `feed_deliveries` replaces the three copies `outgoing_webhook_deliveries`,
 * `slack_deliveries` and `teams_deliveries`, whose rows it takes over as they are.
 *
 * `consumer` is the integration's registry key ('outgoing-webhooks', 'slack', 'microsoft-teams',
 * …) and `target_id` its target (a webhook id, a Slack channel id, a service id), as text since
 * targets differ in kind. A lane is (consumer, target_id, incident_id): lanes never cross
 * consumers. `skipped_at`: parked without an attempt (the plan has no chat, the provider was
 * disconnected). `external_ref`: what a chat attempt already posted (Slack's thread reply `ts`),
 * so a retried attempt does not post it twice. No foreign keys, like the other tables.
 *
 * The move keeps every row with its attempts, lease, schedule and outcome, so nothing pending is
 * lost or sent again; `lane_seq` is given in each old table's order, so every lane keeps its order.
 * The Teams feed position moves from 'teams' to 'microsoft-teams' (its registry key) unchanged.
 * Written only by src/services/incident-feed/delivery-queue.ts and the consumers' fan-outs.
 */
export class Migration20261217100000_feed_deliveries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "feed_deliveries" (
      "id" uuid primary key,
      "lane_seq" bigserial not null constraint "feed_deliveries_lane_seq_unique" unique,
      "consumer" text not null,
      "target_id" text not null,
      "organization_id" uuid not null,
      "event_id" uuid not null,
      "incident_id" uuid null,
      "type" text not null,
      "event" jsonb not null,
      "attempts" int not null default 0,
      "next_attempt_at" timestamptz null,
      "leased_until" timestamptz null,
      "delivered_at" timestamptz null,
      "parked_at" timestamptz null,
      "skipped_at" timestamptz null,
      "external_ref" text null,
      "last_status_code" int null,
      "last_error" text null,
      "latency_ms" int null,
      "created_at" timestamptz not null default now());`);
    // What a consumer claims: its pending rows in lane order.
    this.addSql(
      `create index "feed_deliveries_pending_index" on "feed_deliveries" ("consumer", "lane_seq") where "delivered_at" is null and "parked_at" is null;`,
    );
    this.addSql(
      `create index "feed_deliveries_lane_index" on "feed_deliveries" ("consumer", "target_id", "incident_id", "lane_seq") where "delivered_at" is null and "parked_at" is null;`,
    );
    this.addSql(`create index "feed_deliveries_log_index" on "feed_deliveries" ("consumer", "target_id", "created_at" desc);`);
    this.addSql(`create index "feed_deliveries_created_index" on "feed_deliveries" ("created_at");`);
    this.addSql(`create index "feed_deliveries_incident_index" on "feed_deliveries" ("incident_id", "consumer", "target_id");`);

    // Every row of the three queues, each table's rows in their lane order.
    const common = `organization_id, event_id, incident_id, type, event, attempts, next_attempt_at, leased_until, delivered_at, parked_at,
      last_status_code, last_error, latency_ms, created_at`;
    this.addSql(`insert into "feed_deliveries" (id, lane_seq, consumer, target_id, skipped_at, external_ref, ${common})
      select id, row_number() over (order by source, old_seq), consumer, target_id, skipped_at, external_ref, ${common}
      from (
        select 1 as source, lane_seq as old_seq, id, 'outgoing-webhooks' as consumer, webhook_id::text as target_id,
          null::timestamptz as skipped_at, null::text as external_ref, ${common}
        from "outgoing_webhook_deliveries"
        union all
        select 2, lane_seq, id, 'slack', channel_id::text, skipped_at, reply_ts::text, ${common}
        from "slack_deliveries"
        union all
        select 3, lane_seq, id, 'microsoft-teams', service_id::text, skipped_at, null, ${common}
        from "teams_deliveries"
      ) old;`);
    this.addSql(`select setval(pg_get_serial_sequence('feed_deliveries', 'lane_seq'), coalesce((select max(lane_seq) from "feed_deliveries"), 0) + 1, false);`);

    // The Teams consumer's feed position, under its registry key: no event re-sent or skipped.
    this.addSql(
      `update "incident_event_consumers" set "name" = 'microsoft-teams' where "name" = 'teams'
         and not exists (select 1 from "incident_event_consumers" where "name" = 'microsoft-teams');`,
    );

    this.addSql(`drop table "outgoing_webhook_deliveries";`);
    this.addSql(`drop table "slack_deliveries";`);
    this.addSql(`drop table "teams_deliveries";`);
  }

  /** Back to the three tables, every row to its consumer's, in lane order; the Teams position back to 'teams'. */
  override async down(): Promise<void> {
    const columns = `"organization_id" uuid not null,
      "event_id" uuid not null,
      "incident_id" uuid null,
      "type" text not null,
      "event" jsonb not null,
      "attempts" int not null default 0,
      "next_attempt_at" timestamptz null,
      "leased_until" timestamptz null,
      "delivered_at" timestamptz null,
      "parked_at" timestamptz null,`;
    const outcome = `"last_status_code" int null,
      "last_error" text null,
      "latency_ms" int null,
      "created_at" timestamptz not null default now()`;
    const pending = 'where "delivered_at" is null and "parked_at" is null';
    this.addSql(`create table "outgoing_webhook_deliveries" (
      "id" uuid primary key,
      "lane_seq" bigserial not null constraint "outgoing_webhook_deliveries_lane_seq_unique" unique,
      "webhook_id" uuid not null,
      ${columns}
      ${outcome});`);
    this.addSql(`create index "outgoing_webhook_deliveries_pending_index" on "outgoing_webhook_deliveries" ("lane_seq") ${pending};`);
    this.addSql(`create index "outgoing_webhook_deliveries_lane_index" on "outgoing_webhook_deliveries" ("webhook_id", "incident_id", "lane_seq") ${pending};`);
    this.addSql(`create index "outgoing_webhook_deliveries_log_index" on "outgoing_webhook_deliveries" ("webhook_id", "created_at" desc);`);
    this.addSql(`create table "slack_deliveries" (
      "id" uuid primary key,
      "lane_seq" bigserial not null constraint "slack_deliveries_lane_seq_unique" unique,
      "channel_id" varchar(32) not null,
      ${columns}
      "skipped_at" timestamptz null,
      "reply_ts" varchar(32) null,
      ${outcome});`);
    this.addSql(`create index "slack_deliveries_pending_index" on "slack_deliveries" ("lane_seq") ${pending};`);
    this.addSql(`create index "slack_deliveries_lane_index" on "slack_deliveries" ("channel_id", "incident_id", "lane_seq") ${pending};`);
    this.addSql(`create index "slack_deliveries_created_index" on "slack_deliveries" ("created_at");`);
    this.addSql(`create index "slack_deliveries_incident_index" on "slack_deliveries" ("incident_id", "channel_id");`);
    this.addSql(`create table "teams_deliveries" (
      "id" uuid primary key,
      "lane_seq" bigserial not null constraint "teams_deliveries_lane_seq_unique" unique,
      "service_id" uuid not null,
      ${columns}
      "skipped_at" timestamptz null,
      ${outcome});`);
    this.addSql(`create index "teams_deliveries_pending_index" on "teams_deliveries" ("lane_seq") ${pending};`);
    this.addSql(`create index "teams_deliveries_lane_index" on "teams_deliveries" ("service_id", "incident_id", "lane_seq") ${pending};`);
    this.addSql(`create index "teams_deliveries_created_index" on "teams_deliveries" ("created_at");`);

    const common = `organization_id, event_id, incident_id, type, event, attempts, next_attempt_at, leased_until, delivered_at, parked_at,
      last_status_code, last_error, latency_ms, created_at`;
    // lane_seq given in the one table's order: every lane keeps its order. A consumer the old
    // tables did not know (a later chat integration) has nowhere to go back to.
    this.addSql(`insert into "outgoing_webhook_deliveries" (id, lane_seq, webhook_id, ${common})
      select id, lane_seq, target_id::uuid, ${common} from "feed_deliveries" where consumer = 'outgoing-webhooks';`);
    this.addSql(`insert into "slack_deliveries" (id, lane_seq, channel_id, skipped_at, reply_ts, ${common})
      select id, lane_seq, target_id, skipped_at, external_ref, ${common} from "feed_deliveries" where consumer = 'slack';`);
    this.addSql(`insert into "teams_deliveries" (id, lane_seq, service_id, skipped_at, ${common})
      select id, lane_seq, target_id::uuid, skipped_at, ${common} from "feed_deliveries" where consumer = 'microsoft-teams';`);
    for (const table of ['outgoing_webhook_deliveries', 'slack_deliveries', 'teams_deliveries']) {
      this.addSql(`select setval(pg_get_serial_sequence('${table}', 'lane_seq'), coalesce((select max(lane_seq) from "${table}"), 0) + 1, false);`);
    }
    this.addSql(
      `update "incident_event_consumers" set "name" = 'teams' where "name" = 'microsoft-teams'
         and not exists (select 1 from "incident_event_consumers" where "name" = 'teams');`,
    );
    this.addSql(`drop table "feed_deliveries";`);
  }
}
