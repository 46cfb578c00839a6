import { Migration } from '@mikro-orm/migrations';

/**
 * Live updates for the dashboard (`GET /api/events`, docs/architecture.md, "Dashboard"): Postgres tells every API
 * process when an incident opens or changes status, whoever wrote it (ingestion, the workflow's
 * projections, retention). Only those two: alert counts and timeline rows change far more often,
 * and NOTIFY serialises commits, so the hot ingestion path stays free of it.
 */
export class Migration20261202090000_incident_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function klaxon_notify_incident() returns trigger language plpgsql as $$
      begin
        perform pg_notify('klaxon_events', json_build_object(
          'type', 'incident', 'organization_id', new.organization_id, 'id', new.id, 'number', new.number, 'status', new.status
        )::text);
        return null;
      end $$;`);
    this.addSql(`create trigger incidents_notify_insert after insert on incidents for each row execute function klaxon_notify_incident();`);
    this.addSql(
      `create trigger incidents_notify_status after update of status on incidents for each row when (old.status is distinct from new.status) execute function klaxon_notify_incident();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists incidents_notify_status on incidents;`);
    this.addSql(`drop trigger if exists incidents_notify_insert on incidents;`);
    this.addSql(`drop function if exists klaxon_notify_incident();`);
  }
}
