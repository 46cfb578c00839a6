/** Settings → Import's form and report, as pure helpers (docs/importers.md). */

export type ImportSystem = 'pagerduty' | 'opsgenie';

export const KINDS = ['user', 'contact_method', 'notification_rule', 'team', 'schedule', 'escalation_policy', 'service', 'source'] as const;
export type ImportKind = (typeof KINDS)[number];

/** The report both routes answer with (and the CLI prints with --json). */
export interface ImportReport {
  created: Record<ImportKind, number>;
  updated: Record<ImportKind, number>;
  skipped: Array<{ kind: ImportKind; external_id: string; name: string; why: string }>;
  mapping: Array<{ kind: ImportKind; external_id: string; id: string | null; name: string }>;
}

export interface ImportForm {
  system: ImportSystem;
  credential: string;
  apiUrl: string;
}

export const EMPTY_FORM: ImportForm = { system: 'pagerduty', credential: '', apiUrl: '' };

export const SYSTEMS: Record<ImportSystem, { label: string; credential: string; credentialHelp: string; defaultUrl: string }> = {
  pagerduty: {
    label: 'PagerDuty',
    credential: 'API token',
    credentialHelp: 'A REST API token (read-only is enough): PagerDuty → Integrations → API Access Keys',
    defaultUrl: 'https://api.pagerduty.com',
  },
  opsgenie: {
    label: 'Opsgenie',
    credential: 'API key',
    credentialHelp: 'The key of an API integration with read access: Opsgenie → Settings → Integrations',
    defaultUrl: 'https://api.opsgenie.com',
  },
};

export const KIND_LABELS: Record<ImportKind, string> = {
  user: 'People',
  contact_method: 'Contact methods',
  notification_rule: 'Notification rules',
  team: 'Teams',
  schedule: 'Schedules',
  escalation_policy: 'Escalation policies',
  service: 'Services',
  source: 'Sources (integration keys)',
};

/** The request body: the credential under the system's field name, the URL only when given. */
export function bodyOf(form: ImportForm, dryRun: boolean): Record<string, unknown> {
  const key = form.system === 'pagerduty' ? 'api_token' : 'api_key';
  const url = form.apiUrl.trim();
  return { [key]: form.credential.trim(), ...(url ? { api_url: url } : {}), dry_run: dryRun };
}

/** Whether the report says a person was invited rather than made a member (their account is outside the workspace). */
const invitedIn = (report: Pick<ImportReport, 'skipped'>, externalId: string) =>
  report.skipped.some((s) => s.kind === 'user' && s.external_id === externalId && s.why.includes('invited'));

/** What a mapped object is in Klaxon: its id, or why it has none yet. */
export function klaxonIdOf(entry: ImportReport['mapping'][number], dryRun: boolean, report?: Pick<ImportReport, 'skipped'>): string {
  if (entry.id) return entry.id;
  if (entry.kind === 'user' && (!dryRun || (report && invitedIn(report, entry.external_id)))) return 'invited';
  return dryRun ? 'new' : '—';
}

/** A person of the source as the preview lists them: how they come, and their contact methods and rules (what follows "Name / "). */
export interface PersonPlan {
  externalId: string;
  name: string;
  status: 'member' | 'new member' | 'invited';
  contactMethods: string[];
  rules: string[];
}

/** The people of a report, each with the contact methods and rules that come with them (mapped as `<person id>/…`). */
export function peopleOf(report: ImportReport): PersonPlan[] {
  const partsOf = (kind: ImportKind, person: string) =>
    report.mapping.filter((m) => m.kind === kind && m.external_id.startsWith(`${person}/`)).map((m) => m.name.slice(m.name.indexOf(' / ') + 3));
  return report.mapping
    .filter((m) => m.kind === 'user')
    .map((m) => ({
      externalId: m.external_id,
      name: m.name,
      status: invitedIn(report, m.external_id) ? 'invited' : m.id ? 'member' : 'new member',
      contactMethods: partsOf('contact_method', m.external_id),
      rules: partsOf('notification_rule', m.external_id),
    }));
}

/** Everything created and updated, for a one-line summary. */
export const total = (counts: Record<ImportKind, number>): number => KINDS.reduce((n, k) => n + counts[k], 0);
