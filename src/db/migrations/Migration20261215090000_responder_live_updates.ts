import { Migration } from '@mikro-orm/migrations';

/**
 * Live updates for a responder's entries (docs/responding.md): a note, a snooze, responders added
 * or an incident merged in tells the dashboard's open streams about its incident, as a status
 * change does, so a teammate's page refreshes its timeline. Only those entry types: page and alert
 * entries stay off the NOTIFY path (see Migration20261202090000_incident_events).
 */
export class Migration20261215090000_responder_live_updates extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function klaxon_notify_responder_entry() returns trigger language plpgsql as $$
      begin
        perform pg_notify('klaxon_events', json_build_object(
          'type', 'incident', 'organization_id', i.organization_id, 'id', i.id, 'number', i.number, 'status', i.status
        )::text) from incidents i where i.id = new.incident_id;
        return null;
      end $$;`);
    this.addSql(
      `create trigger timeline_entries_notify_responder after insert on timeline_entries for each row when (new.type in ('note', 'snooze', 'responders_added', 'merged')) execute function klaxon_notify_responder_entry();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists timeline_entries_notify_responder on timeline_entries;`);
    this.addSql(`drop function if exists klaxon_notify_responder_entry();`);
  }
}
