import { IMPORT_KINDS, type ImportKind, type ImportReport } from '../../domain/importers/plan';

/** An import's report for people: counts per kind, then everything skipped with why. */

const LABELS: Record<ImportKind, [string, string]> = {
  user: ['user', 'users'],
  contact_method: ['contact method', 'contact methods'],
  notification_rule: ['notification rule', 'notification rules'],
  team: ['team', 'teams'],
  schedule: ['schedule', 'schedules'],
  escalation_policy: ['escalation policy', 'escalation policies'],
  service: ['service', 'services'],
  source: ['source', 'sources'],
};

const counts = (c: Record<ImportKind, number>) =>
  IMPORT_KINDS.filter((k) => c[k] > 0)
    .map((k) => `${c[k]} ${LABELS[k][c[k] === 1 ? 0 : 1]}`)
    .join(', ') || 'nothing';

/** `label`: the system as people name it (the registry importer's label, "PagerDuty"). */
export function reportText(label: string, report: ImportReport, dryRun: boolean): string {
  const lines = [
    dryRun ? `Import from ${label}: the plan (dry run, nothing was written)` : `Import from ${label}: done`,
    `${dryRun ? 'Would create' : 'Created'}: ${counts(report.created)}${report.created.user ? ' (new members get a welcome email)' : ''}`,
    `${dryRun ? 'Would update' : 'Updated'}: ${counts(report.updated)}`,
    `In Klaxon: ${report.mapping.length} object(s) mapped from ${label}`,
  ];
  if (report.skipped.length === 0) lines.push('Skipped: nothing');
  else {
    lines.push(`Skipped or changed on the way (${report.skipped.length}):`);
    for (const s of report.skipped) lines.push(`  - ${LABELS[s.kind][0]} "${s.name}" (${s.external_id}): ${s.why}`);
  }
  return lines.join('\n') + '\n';
}
