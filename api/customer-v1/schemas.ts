import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { INCIDENT_STATUSES } from '../../src/domain/incident-lifecycle';
import { SEVERITIES } from '../../src/domain/severity';
import { AlertSchema } from '../api-key/alert-schemas';

extendZodWithOpenApi(z);

/** Zod schemas of the customer API v1: the validators and the OpenAPI document both use these. */

const uuid = (what: string) => z.string().uuid({ message: `${what} must be a UUID` });

/** Accepts a value in any case and compares it upper case (severity `low` is `LOW`). */
const upperEnum = <T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z
    .string()
    .transform((s) => s.trim().toUpperCase())
    .pipe(z.enum(values, { message: `${what} must be one of ${values.join(', ')}` }))
    .openapi({ type: 'string', enum: [...values], description: `${what}; any case accepted` });

export const ErrorSchema = z
  .object({ message: z.string(), code: z.string().optional() })
  .openapi('Error', { description: 'Every error: a human-readable message, and a code for documented conflicts.' });

export const OrgParams = z.object({ organization_id: uuid('organization_id') });
export const IncidentParams = OrgParams.extend({ incident_id: z.string().openapi({ format: 'uuid' }) });
export const ServiceParams = OrgParams.extend({ service_id: z.string().openapi({ format: 'uuid' }) });
export const MonitorParams = OrgParams.extend({ monitor_id: z.string().openapi({ format: 'uuid' }) });

const timestamp = z.string().datetime().openapi({ format: 'date-time' });

export const IncidentSchema = z
  .object({
    id: z.string().uuid(),
    number: z.number().int().openapi({ description: 'Per-workspace incident number: 1, 2, 3, …' }),
    title: z.string(),
    description: z.string().nullable(),
    severity: z.enum(SEVERITIES),
    status: z.enum(INCIDENT_STATUSES),
    service_id: z.string().uuid().nullable(),
    owning_team_id: z.string().uuid(),
    dedup_key: z.string().nullable(),
    alert_count: z.number().int(),
    created_at: timestamp,
    acknowledged_at: timestamp.nullable(),
    resolved_at: timestamp.nullable(),
    closed_at: timestamp.nullable(),
    updated_at: timestamp,
    paging_held: z.boolean().openapi({ description: 'TRIGGERED, and a maintenance window of its service holds its paging: nobody is paged until it ends' }),
    paging_held_until: timestamp.nullable().openapi({ description: 'when the hold ends (the incident pages then if still TRIGGERED); null when not held' }),
    links: z.object({ temporal_ui: z.string().url().openapi({ description: "The incident workflow's page in the Temporal Web UI" }) }),
  })
  .openapi('Incident');

/** How many of its alerts, newest first, an incident's detail shows (all of them: /v1/alerts?incident_id=). */
export const INCIDENT_ALERTS_SHOWN = 20;

export const IncidentDetailSchema = IncidentSchema.extend({
  alerts: z.array(AlertSchema).openapi({ description: `its latest ${INCIDENT_ALERTS_SHOWN} alerts, newest first, with Form B tags, url, source and message` }),
}).openapi('IncidentDetail');

export const CreateIncidentBody = z
  .object({
    title: z.string().trim().min(1, 'title must not be empty').max(255, 'title must be at most 255 characters'),
    description: z.string().max(20000, 'description must be at most 20000 characters').nullish(),
    severity: upperEnum(SEVERITIES, 'severity'),
    owning_team_id: uuid('owning_team_id'),
  })
  .openapi('CreateIncident');

export const ListIncidentsQuery = z.object({
  status: upperEnum(INCIDENT_STATUSES, 'status').optional(),
  severity: upperEnum(SEVERITIES, 'severity').optional(),
  service_id: uuid('service_id').optional(),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .default(25)
    .openapi({ type: 'integer', default: 25, minimum: 1, maximum: 100 }),
  cursor: z.string().max(512).optional().openapi({ description: 'meta.next_cursor of the previous page' }),
});

export const IncidentListMeta = z.object({ next_cursor: z.string().nullable() }).openapi('PageMeta');

export const ServiceSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    description: z.string().nullable(),
    owning_team_id: z.string().uuid(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi('Service');

export const MonitorSchema = z
  .object({
    id: z.string().uuid(),
    service_id: z.string().uuid(),
    name: z.string(),
    type: z.string().openapi({ description: '`http` for HTTP monitors' }),
    url: z.string().openapi({ description: 'what the monitor checks' }),
    target: z.string().openapi({ description: 'the same as `url` (kept for older clients)' }),
    interval_seconds: z.number().int(),
    status: z
      .enum(['PENDING', 'UP', 'DOWN', 'PAUSED'])
      .openapi({ description: 'PENDING before its first check; UP or DOWN from its checks (DOWN once its failures open an incident); PAUSED while paused' }),
    last_check: z
      .object({ checked_at: timestamp, ok: z.boolean(), status_code: z.number().int().nullable(), latency_ms: z.number().int().nullable() })
      .nullable()
      .openapi({ description: 'the latest check; null before the first' }),
    uptime_24h: z.number().min(0).max(100).nullable().openapi({ description: 'percent of the last 24 hours’ checks that passed; null without checks' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi('Monitor');
