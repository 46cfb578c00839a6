/**
 * A report as a PDF (pdfkit): title, range, the type's figures as tables, and a bar chart drawn in
 * vector graphics (incidents per day, MTTA per service, or incidents per severity).
 */
import { DateTime } from 'luxon';
import PDFDocument from 'pdfkit';
import { formatDuration, type DurationStats } from '../../domain/reports/durations';
import type { Report } from '../../domain/reports/report';
import { barChart, heading, note, pdfText, table } from './pdf-draw';

/** Incident rows a PDF lists at most; the CSV and JSON carry them all. */
export const PDF_INCIDENT_ROWS = 500;

const TITLES: Record<Report['type'], string> = {
  summary: 'Klaxon summary report',
  detailed: 'Klaxon detailed report',
  incidents: 'Klaxon incidents report',
  performance: 'Klaxon performance report',
};

/** The title a report's PDF opens with. */
export const pdfTitle = (report: Report): string => TITLES[report.type];

const statsCells = (label: string, s: DurationStats) => [label, formatDuration(s.mean), formatDuration(s.p50), formatDuration(s.p90), s.count];

/** Renders the report; resolves with the whole document. */
export function reportPdf(report: Report): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: pdfTitle(report), Author: 'Klaxon', CreationDate: new Date(report.generated_at) } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  draw(doc, report);
  doc.end();
  return done;
}

function draw(doc: InstanceType<typeof PDFDocument>, r: Report): void {
  doc.font('Helvetica-Bold').fontSize(20).fillColor('#1f2933').text(pdfTitle(r));
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#6b7280')
    .text(`${r.range.from} to ${r.range.to} (${pdfText(r.range.time_zone)}), generated ${r.generated_at.slice(0, 16).replace('T', ' ')} UTC`);
  if (r.totals) {
    heading(doc, 'Totals');
    const t = r.totals;
    table(
      doc,
      ['Incidents', 'Acknowledged', 'Resolved', 'Open', 'Alerts', 'Pages'],
      [[t.incidents, t.acknowledged, t.resolved, t.open, t.alerts, t.pages]],
      [1, 1, 1, 1, 1, 1],
    );
  }
  if (r.mtta && r.mttr) {
    heading(doc, 'Response times');
    table(
      doc,
      ['', 'Mean', 'p50', 'p90', 'Incidents'],
      [statsCells('MTTA (to acknowledge)', r.mtta), statsCells('MTTR (to resolve)', r.mttr)],
      [3, 2, 2, 2, 1],
    );
  }
  if (r.incidents_per_day) {
    heading(doc, 'Incidents per day');
    barChart(
      doc,
      r.incidents_per_day.map((d) => ({ label: d.day.slice(5), value: d.count })),
    );
  }
  if (r.per_service) {
    heading(doc, 'MTTA per service (mean)');
    barChart(
      doc,
      r.per_service.slice(0, 20).map((s) => ({ label: s.service, value: s.mtta.mean ?? 0 })),
      { format: (v) => formatDuration(v) },
    );
    table(
      doc,
      ['Service', 'Team', 'Incidents', 'MTTA mean', 'MTTA p50', 'MTTA p90', 'MTTR mean', 'MTTR p50', 'MTTR p90'],
      r.per_service.map((s) => [
        s.service,
        s.team,
        s.incidents,
        ...[s.mtta, s.mttr].flatMap((x) => [formatDuration(x.mean), formatDuration(x.p50), formatDuration(x.p90)]),
      ]),
      [2.4, 1.7, 1.2, 1.35, 1.35, 1.35, 1.35, 1.35, 1.35],
    );
  }
  if (r.per_team) {
    heading(doc, 'Per team');
    table(
      doc,
      ['Team', 'Incidents', 'MTTA mean', 'MTTA p50', 'MTTA p90', 'MTTR mean', 'MTTR p50', 'MTTR p90'],
      r.per_team.map((t) => [t.team, t.incidents, ...[t.mtta, t.mttr].flatMap((x) => [formatDuration(x.mean), formatDuration(x.p50), formatDuration(x.p90)])]),
      [3, 1.2, 1.35, 1.35, 1.35, 1.35, 1.35, 1.35],
    );
  }
  if (r.by_severity && r.by_status) {
    heading(doc, 'Incidents by severity and status');
    const n = Math.max(r.by_severity.length, r.by_status.length);
    const rows = Array.from({ length: n }, (_, i) => [
      r.by_severity![i]?.severity ?? '',
      r.by_severity![i]?.count ?? '',
      r.by_status![i]?.status ?? '',
      r.by_status![i]?.count ?? '',
    ]);
    table(doc, ['Severity', 'Incidents', 'Status', 'Incidents'], rows, [2, 1, 2, 1]);
  }
  if (r.pages_by_channel) {
    heading(doc, 'Pages per channel');
    table(
      doc,
      ['Channel', 'Pages', 'Failed'],
      r.pages_by_channel.map((c) => [c.channel, c.pages, c.failed]),
      [2, 1, 1],
    );
  }
  if (r.night_pages) {
    heading(doc, "Night-time pages (22:00-07:00, each person's time zone)");
    table(
      doc,
      ['Person', 'Time zone', 'Pages', 'At night'],
      r.night_pages.map((p) => [p.name ? `${p.name} <${p.email}>` : p.email, p.time_zone, p.pages, p.night_pages]),
      [4, 2, 1, 1],
    );
  }
  if (r.noisy_sources) {
    heading(doc, 'Noisiest sources (top 10)');
    table(
      doc,
      ['Source', 'Service', 'Alerts'],
      r.noisy_sources.map((s) => [s.source, s.service, s.alerts]),
      [3, 3, 1],
    );
  }
  if (r.incidents) incidentsPart(doc, r);
}

function incidentsPart(doc: InstanceType<typeof PDFDocument>, r: Report): void {
  const rows = r.incidents!;
  if (r.type === 'incidents') {
    heading(doc, 'Incidents per severity');
    const counts = new Map<string, number>();
    for (const i of rows) counts.set(i.severity, (counts.get(i.severity) ?? 0) + 1);
    barChart(
      doc,
      ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'].map((s) => ({ label: s, value: counts.get(s) ?? 0 })),
      { height: 100 },
    );
  }
  heading(doc, `Incidents (${rows.length})`);
  if (rows.length > PDF_INCIDENT_ROWS) note(doc, `The first ${PDF_INCIDENT_ROWS} are listed here; the CSV and JSON formats list all ${rows.length}.`);
  const zone = r.range.time_zone;
  const when = (iso: string) => DateTime.fromISO(iso, { zone }).toFormat('yyyy-MM-dd HH:mm');
  table(
    doc,
    ['#', 'Title', 'Service', 'Severity', 'Status', `Created (${pdfText(zone)})`, 'TTA', 'TTR'],
    rows
      .slice(0, PDF_INCIDENT_ROWS)
      .map((i) => [i.number, i.title, i.service, i.severity, i.status, when(i.created_at), formatDuration(i.tta), formatDuration(i.ttr)]),
    [0.7, 4, 2, 1.3, 1.6, 2.2, 1.3, 1.3],
  );
}
