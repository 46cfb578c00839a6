/**
 * SQL the incident store puts in its own statements so each change writes its `incident_events`
 * row in the same transaction (docs/integrations.md). Only the store uses it: the feed has one
 * writer, like `incidents`.
 */

/** The columns of an event insert, in the order the fragments below select them. */
export const EVENT_INSERT = 'insert into incident_events (id, organization_id, incident_id, type, incident, actor, data, created_at)';

/**
 * The actor as events show it, from timeline-style columns: a person by name (or email), the
 * system by what acted (`ingest`, `escalation`, …).
 */
export const actorJson = (type: string, id: string, via: string) =>
  `jsonb_build_object('type', ${type}, 'id', ${id}, 'name', coalesce((select coalesce(u.name, u.email) from users u where u.id = ${id}), ${via}))`;
