import { z } from 'zod';
import { INCIDENT_STATUSES } from '../../../src/domain/incident-lifecycle';
import { REPORT_FORMATS, REPORT_TYPES, type Report } from '../../../src/domain/reports/report';
import { SEVERITIES } from '../../../src/domain/severity';
import { generateReport, reportCsv, reportPdf } from '../../../src/services/reports';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, type AdminDeps } from '../admin-kit';
import { sessionOf } from '../guards';

const ReportRequestBody = z
  .object({
    type: z.enum(REPORT_TYPES),
    dateRange: z
      .string()
      .max(40)
      .optional()
      .describe('`YYYY-MM-DD to YYYY-MM-DD`, both days included, in your time zone (users.time_zone, else UTC); default the last 30 days'),
    format: z.enum(REPORT_FORMATS).default('json'),
  })
  .strict();

const Stats = z
  .object({ count: z.number().int(), mean: z.number().nullable(), p50: z.number().nullable(), p90: z.number().nullable() })
  .describe('seconds, to the millisecond; null when no incident counts');
const Performance = { incidents: z.number().int(), mtta: Stats, mttr: Stats };

const ReportSchema = z.object({
  type: z.enum(REPORT_TYPES),
  range: z.object({ from: z.string(), to: z.string(), time_zone: z.string(), time_zone_source: z.enum(['user', 'default_utc']) }),
  generated_at: z.iso.datetime(),
  totals: z
    .object({
      incidents: z.number().int(),
      acknowledged: z.number().int(),
      resolved: z.number().int(),
      open: z.number().int(),
      alerts: z.number().int(),
      pages: z.number().int(),
    })
    .optional(),
  mtta: Stats.optional(),
  mttr: Stats.optional(),
  by_severity: z.array(z.object({ severity: z.enum(SEVERITIES), count: z.number().int() })).optional(),
  by_status: z.array(z.object({ status: z.enum(INCIDENT_STATUSES), count: z.number().int() })).optional(),
  incidents_per_day: z.array(z.object({ day: z.string(), count: z.number().int() })).optional(),
  per_service: z.array(z.object({ service_id: z.uuid().nullable(), service: z.string(), team_id: z.uuid(), team: z.string(), ...Performance })).optional(),
  per_team: z.array(z.object({ team_id: z.uuid(), team: z.string(), ...Performance })).optional(),
  pages_by_channel: z.array(z.object({ channel: z.string(), pages: z.number().int(), failed: z.number().int() })).optional(),
  night_pages: z
    .array(
      z.object({
        user_id: z.uuid(),
        name: z.string().nullable(),
        email: z.string(),
        time_zone: z.string(),
        pages: z.number().int(),
        night_pages: z.number().int(),
      }),
    )
    .optional(),
  noisy_sources: z.array(z.object({ source_id: z.uuid(), source: z.string(), service: z.string().nullable(), alerts: z.number().int() })).optional(),
  incidents: z
    .array(
      z.object({
        number: z.number().int(),
        title: z.string(),
        service: z.string().nullable(),
        severity: z.enum(SEVERITIES),
        status: z.enum(INCIDENT_STATUSES),
        created_at: z.iso.datetime(),
        acknowledged_at: z.iso.datetime().nullable(),
        resolved_at: z.iso.datetime().nullable(),
        tta: z.number().nullable(),
        ttr: z.number().nullable(),
      }),
    )
    .optional(),
});

const fileName = (r: Report, ext: string) => `klaxon-${r.type}-${r.range.from}-${r.range.to}.${ext}`;

/** Reports: POST /api/reports/generate (json, csv, pdf). Any member of the workspace may generate them. */
export function reportsRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      access: 'read',
      path: '/reports/generate',
      summary: 'Generate a report: MTTA/MTTR, counts, pages, noisy sources (any member); JSON, CSV or PDF',
      operationId: 'generateReport',
      body: ReportRequestBody,
      success: {
        status: 200,
        description: 'json: the report in `data`; csv: text/csv attachment; pdf: application/pdf attachment (klaxon-<type>-<from>-<to>.<ext>)',
        schema: ReportSchema,
        downloads: ['text/csv', 'application/pdf'],
      },
      errors: {
        ...ADMIN_ERRORS,
        400: "invalid input, named in `error`: an unknown type or format, or a `dateRange` that is malformed, ends before it starts, or starts before the plan's history window",
      },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        const plan = sessionOf(ctx as never).organization.plan;
        const report = await generateReport(deps.orm, {
          organizationId: actor.organizationId,
          plan,
          userId: actor.userId,
          type: body.type,
          dateRange: body.dateRange,
        });
        if (body.format === 'csv')
          return { data: null, file: { body: reportCsv(report), contentType: 'text/csv; charset=utf-8', filename: fileName(report, 'csv') } };
        if (body.format === 'pdf')
          return { data: null, file: { body: await reportPdf(report), contentType: 'application/pdf', filename: fileName(report, 'pdf') } };
        return { data: report, message: `${report.type} report, ${report.range.from} to ${report.range.to}` };
      },
    }),
  ];
}
