import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ALERT_STATUSES } from '../../src/domain/alert-status';
import { SEVERITIES } from '../../src/domain/severity';
import { PageQuery } from './schemas';

extendZodWithOpenApi(z);

/** Zod schemas of the API-key surface's /v1/alerts: the validators and its OpenAPI document both use these. */

const SEVERITY_NAMES = SEVERITIES.map((s) => s.toLowerCase()) as [Lowercase<(typeof SEVERITIES)[number]>, ...Array<Lowercase<(typeof SEVERITIES)[number]>>];
const timestamp = z.string().datetime().openapi({ format: 'date-time' });

/** A filter value in any case, compared lower case; a wrong one is 400 naming the allowed values. */
const lowerEnum = <T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.enum(values, { message: `${what} must be one of ${values.join(', ')}` }))
    .openapi({ type: 'string', enum: [...values], description: `${what}; any case accepted` });

export const ListAlertsQuery = PageQuery.extend({
  status: lowerEnum(ALERT_STATUSES, 'status').optional(),
  severity: lowerEnum(SEVERITY_NAMES, 'severity').optional(),
  incident_id: z.string().uuid({ message: 'incident_id must be a UUID' }).optional().openapi({ description: 'only the alerts of this incident' }),
});

export const AlertSchema = z
  .object({
    id: z.string().uuid(),
    title: z.string(),
    message: z.string().nullable(),
    severity: z.enum(SEVERITY_NAMES),
    status: z
      .enum(ALERT_STATUSES)
      .openapi({ description: 'resolved: the alert resolved; acknowledged: its incident is ACKNOWLEDGED or INVESTIGATING; else active' }),
    source: z.string().nullable().openapi({ description: 'what the sender named as its source (Form B `source`)' }),
    tags: z.record(z.string(), z.string()).openapi({ description: 'Form B tags; {} when none' }),
    url: z.string().nullable(),
    webhook_id: z.string().uuid().nullable().openapi({ description: 'the webhook it came through; null for other sources and deleted webhooks' }),
    incident_id: z.string().uuid(),
    created_at: timestamp,
    acknowledged_at: timestamp.nullable().openapi({ description: 'for an acknowledged alert: when its incident was last acknowledged' }),
    resolved_at: timestamp.nullable(),
  })
  .openapi('Alert');
