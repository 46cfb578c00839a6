import type { Command } from 'commander';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { audited } from './audit';
import type { Config } from '../config';
import { addScheduleOverride, createSchedule, onCall } from '../services/paging';
import { output, parseOptions, withDatabase } from './admin';

// An instant must carry its offset: "2026-11-01T09:00" alone would silently mean the
// machine's local time.
const instant = z
  .string()
  .refine(
    (s) => /(Z|[+-]\d{2}(:?\d{2})?)$/i.test(s) && DateTime.fromISO(s, { setZone: true }).isValid,
    'must be an ISO 8601 instant with an offset, e.g. 2026-11-01T09:00:00Z',
  )
  .transform((s) => DateTime.fromISO(s, { setZone: true }).toJSDate());

const json = z.string().transform((s, ctx) => {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be valid JSON (a list of layers)' });
    return z.NEVER;
  }
});

const schemas = {
  create: z.object({
    org: z.string().uuid('must be a workspace id (UUID)'),
    name: z.string().trim().min(1, 'is required').max(255, 'must be at most 255 characters'),
    timeZone: z.string().min(1, 'is required'),
    layers: json,
  }),
  override: z.object({
    schedule: z.string().uuid('must be a schedule id (UUID)'),
    user: z.string().email('must be an email address'),
    from: instant,
    to: instant,
  }),
  oncall: z.object({ schedule: z.string().uuid('must be a schedule id (UUID)'), at: instant.optional() }),
};

/** `klaxon schedule …` and `klaxon oncall`: on-call schedules. */
export function registerScheduleCommands(program: Command, getConfig: () => Config): void {
  const schedule = program.command('schedule').description('on-call schedules: rotation layers in a time zone, and overrides');
  schedule
    .command('create')
    .requiredOption('--org <id>', 'workspace id')
    .requiredOption('--name <name>', 'a name people recognise')
    .requiredOption('--time-zone <tz>', 'IANA time zone of handoffs, e.g. Europe/Berlin')
    .requiredOption(
      '--layers <json>',
      '[{"name","users":[email or id],"rotation":{"unit":"hours|days|weeks","length":1},"handoff_time":"09:00","start":"2026-11-01",' +
        '"restrictions"?:[{"type":"daily|weekly","start_day"?:1-7 (weekly, 1 = Monday),"start_time":"09:00","duration_seconds":28800}]}]',
    )
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(schemas.create, raw);
      output(
        await withDatabase(getConfig(), (orm) =>
          audited(orm, { action: 'schedule.create', targetType: 'schedule', table: 'schedules', idOf: (r) => r.id, details: () => ({ name: o.name }) }, () =>
            createSchedule(orm, { organizationId: o.org, name: o.name, timeZone: o.timeZone, layers: o.layers }),
          ),
        ),
        raw.json,
      );
    });
  schedule
    .command('override')
    .description('put someone on call for a time range, above every layer')
    .requiredOption('--schedule <id>', 'schedule id')
    .requiredOption('--user <email>', "a member of the schedule's workspace")
    .requiredOption('--from <iso>', 'start (inclusive), ISO 8601 with offset')
    .requiredOption('--to <iso>', 'end (exclusive), ISO 8601 with offset')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(schemas.override, raw);
      output(
        await withDatabase(getConfig(), (orm) =>
          audited(
            orm,
            {
              action: 'schedule_override.create',
              targetType: 'schedule',
              table: 'schedules',
              id: o.schedule,
              details: () => ({ user: o.user, from: o.from.toISOString(), to: o.to.toISOString() }),
            },
            () => addScheduleOverride(orm, { scheduleId: o.schedule, email: o.user, from: o.from, to: o.to }),
          ),
        ),
        raw.json,
      );
    });

  program
    .command('oncall')
    .description('who is on call on a schedule')
    .requiredOption('--schedule <id>', 'schedule id')
    .option('--at <iso>', 'instant to ask about, ISO 8601 with offset (default: now)')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(schemas.oncall, raw);
      output(await withDatabase(getConfig(), (orm) => onCall(orm, { scheduleId: o.schedule, at: o.at ?? new Date() })), raw.json);
    });
}
