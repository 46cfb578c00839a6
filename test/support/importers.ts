import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { zeroCounts, type ImportKind, type ImportReport, type ImportSystem } from '../../src/domain/importers/plan';
import type { Plan } from '../../src/domain/plans';
import { knexOf } from '../../src/db/knex';
import { importFrom } from '../../src/integrations/import-sources';
import { SYSTEM_CLI } from '../../src/services/audit';
import type { ImportActor, ImportDeps } from '../../src/services/importers';
import { onCall } from '../../src/services/paging';
import { addUser, createOrganization } from '../../src/services/workspace';

/** What the importer tests share: a workspace with the fixtures' people, the engine's dependencies, row counts and a secret scan. */

/** The fixture accounts' people (users.json of src/integrations/pagerduty/testing/fixtures and opsgenie), by the local part of their email. */
export const FIXTURE_PEOPLE = ['alice', 'bob', 'carol', 'dan', 'erin', 'frank'] as const;

/** The fixture's people who are members already in most tests (Frank is new: the import provisions him), in a fake's domain. */
export const memberEmails = (domain: string): string[] => FIXTURE_PEOPLE.filter((n) => n !== 'frank').map((n) => `${n}@${domain}`);

/** A fixture address (`bob@example.com`, as test/fixtures write them) in the copy's own domain. */
export const fixtureEmail = (email: string, domain: string): string => email.replace(/@example\.com$/, `@${domain}`);

/** Every kind at zero, and some kinds set. */
export const counts = (over: Partial<Record<ImportKind, number>> = {}): Record<ImportKind, number> => ({ ...zeroCounts(), ...over });

export const CLI_ACTOR: ImportActor = { audit: SYSTEM_CLI, userId: null, role: 'BILLING_OWNER' };

/** A fresh workspace with the given people as members (verified) and an Account Admin of its own (who is in no source account). */
export async function importWorkspace(
  orm: MikroORM,
  opts: { plan?: Plan; members: string[] },
): Promise<{ organizationId: string; members: Map<string, string>; admin: { id: string; email: string } }> {
  const org = await createOrganization(orm, { name: `Import ${randomUUID().slice(0, 8)}`, plan: opts.plan ?? 'BUSINESS' });
  const admin = await addUser(orm, {
    organizationId: org.id,
    email: `admin-${randomUUID().slice(0, 8)}@klaxon.test`,
    password: 'a long password',
    role: 'ACCOUNT_ADMIN',
    verified: true,
  });
  const members = new Map<string, string>();
  for (const email of opts.members) {
    // The same address may already be a user of another workspace of this file: addUser reuses it.
    const user = await addUser(orm, { organizationId: org.id, email, password: 'a long password', role: 'MEMBER', verified: true });
    members.set(email, user.id);
  }
  return { organizationId: org.id, members, admin: { id: admin.id, email: admin.email } };
}

export interface SentMail {
  to: string;
  subject: string;
  text: string;
}

export function importDeps(orm: MikroORM, mails: SentMail[] = []): ImportDeps {
  return { orm, mailer: { send: async (m) => void mails.push(m) }, appUrl: 'http://app.test', ingestBaseUrl: 'http://ingest.test' };
}

/** Runs a whole import against a fake's URL (private addresses allowed, short backoff). */
export function runImport(
  orm: MikroORM,
  system: ImportSystem,
  source: { url: string; credential: string },
  opts: { organizationId: string; dryRun?: boolean; mails?: SentMail[]; maxAttempts?: number },
): Promise<ImportReport> {
  return importFrom(
    importDeps(orm, opts.mails),
    { organizationId: opts.organizationId, system, dryRun: opts.dryRun ?? false, actor: CLI_ACTOR },
    { credential: source.credential, apiUrl: source.url, allowPrivate: true, http: { baseDelayMs: 20, maxAttempts: opts.maxAttempts } },
  );
}

/** The tables an import writes to, with their rows for one workspace. */
const WORKSPACE_TABLES = [
  'teams',
  'schedules',
  'escalation_policies',
  'services',
  'alert_sources',
  'invitations',
  'import_mappings',
  'import_left_out',
  'contact_methods',
  'notification_rules',
  'audit_log',
  'memberships',
];

export async function workspaceRows(orm: MikroORM, organizationId: string): Promise<Record<string, number>> {
  const knex = knexOf(orm);
  const counts: Record<string, number> = {};
  for (const table of WORKSPACE_TABLES) counts[table] = Number((await knex(table).where({ organization_id: organizationId }).count({ n: '*' }))[0].n);
  const overrides = await knex('schedule_overrides as o')
    .join('schedules as s', 's.id', 'o.schedule_id')
    .where('s.organization_id', organizationId)
    .count({ n: '*' });
  counts.schedule_overrides = Number(overrides[0].n);
  const teamMembers = await knex('team_members as m').join('teams as t', 't.id', 'm.team_id').where('t.organization_id', organizationId).count({ n: '*' });
  counts.team_members = Number(teamMembers[0].n);
  return counts;
}

/** Every table of the database in which some row's text holds `secret`. */
export async function tablesHolding(orm: MikroORM, secret: string): Promise<string[]> {
  const knex = knexOf(orm);
  const tables: Array<{ table_name: string }> = await knex('information_schema.tables')
    .select('table_name')
    .where({ table_schema: 'public', table_type: 'BASE TABLE' });
  const holding: string[] = [];
  for (const { table_name } of tables) {
    const { rows } = (await knex.raw(`select count(*)::int as n from "${table_name}" as t where t::text like ?`, [`%${secret}%`])) as {
      rows: Array<{ n: number }>;
    };
    if (rows[0].n > 0) holding.push(table_name);
  }
  return holding;
}

/** The emails of who Klaxon puts on call on a schedule at an instant. */
export async function onCallEmails(orm: MikroORM, scheduleId: string, at: string): Promise<string[]> {
  return (await onCall(orm, { scheduleId, at: new Date(at) })).users.map((u) => u.email);
}

/** The Klaxon id the report maps an external object to. */
export function mappedId(report: ImportReport, kind: string, externalId: string): string {
  const entry = report.mapping.find((m) => m.kind === kind && m.external_id === externalId);
  if (!entry?.id) throw new Error(`${kind} ${externalId} is not mapped: ${JSON.stringify(report.skipped.filter((s) => s.external_id.startsWith(externalId)))}`);
  return entry.id;
}
