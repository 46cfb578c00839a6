import type { Context } from 'koa';
import { ageInWords } from '../domain/age';
import { escapeMarkup as html } from '../domain/markup';

/**
 * The small HTML page a signed action link answers with (an email's, a push's, a Microsoft Teams card's):
 * phone-first, in the dashboard's look (its font, grays, blue button and badge colours), never
 * cached, and no Referer leaving it (the token is in the path). No script: the app's
 * Content-Security-Policy allows none inline, and a form needs none.
 */
export function linkPage(ctx: Context, status: number, title: string, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html';
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  ctx.body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${html(title)} · Klaxon</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">Klaxon</p>
${body}
</main>
</body>
</html>
`;
}

// Mantine's default theme, as the dashboard draws it: the same font stack, grays, blue and the
// light badge variant. Sized for a thumb: the button is full width and at least 48 px high.
const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:#f8f9fa;color:#212529;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5}
main{max-width:28rem;margin:0 auto;padding:1rem}
.brand{margin:0 0 .75rem;font-weight:700;color:#e03131;letter-spacing:.02em}
.card{background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:1rem;margin-bottom:1rem}
.number{margin:0;color:#868e96;font-size:.875rem;font-weight:600}
h1{margin:.25rem 0 .75rem;font-size:1.375rem;line-height:1.3;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:max-content 1fr;align-items:center;gap:.375rem .75rem;margin:0;font-size:.9375rem}
dt{color:#868e96}
dd{margin:0;overflow-wrap:anywhere}
.badge{display:inline-block;padding:0 .5rem;border-radius:1rem;font-size:.75rem;font-weight:700;line-height:1.5rem;text-transform:uppercase}
.red{background:#ffe3e3;color:#e03131}.orange{background:#ffe8cc;color:#e8590c}.yellow{background:#fff3bf;color:#e67700}
.green{background:#d3f9d8;color:#2f9e44}.blue{background:#d0ebff;color:#1971c2}.gray{background:#e9ecef;color:#495057}
button,.button{display:block;width:100%;min-height:3rem;padding:.75rem 1rem;border:0;border-radius:4px;background:#228be6;color:#fff;font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
button:hover,.button:hover{background:#1c7ed6}
button:focus-visible,.button:focus-visible{outline:2px solid #1971c2;outline-offset:2px}
.hint{color:#868e96;font-size:.875rem;margin:.75rem 0 0}
.notice{border-radius:8px;padding:.75rem 1rem;margin-bottom:1rem;font-weight:600}
.notice.done{background:#ebfbee;color:#2b8a3e;border:1px solid #b2f2bb}
.notice.unchanged{background:#fff9db;color:#e67700;border:1px solid #ffec99}
.notice.invalid{background:#fff5f5;color:#c92a2a;border:1px solid #ffc9c9}
`;

/** Badge colours as the dashboard's (ui/src/incidents/status.ts for statuses). */
const STATUS_COLOURS: Record<string, string> = { TRIGGERED: 'red', ACKNOWLEDGED: 'yellow', INVESTIGATING: 'orange', RESOLVED: 'green', CLOSED: 'gray' };
const SEVERITY_COLOURS: Record<string, string> = { CRITICAL: 'red', HIGH: 'orange', MEDIUM: 'yellow', LOW: 'blue', INFO: 'gray' };

const badge = (text: string, colours: Record<string, string>) => `<span class="badge ${colours[text] ?? 'gray'}">${html(text)}</span>`;

/** What an action page shows of an incident. */
export interface IncidentCard {
  number: number;
  title: string;
  status: string;
  severity?: string;
  service_name?: string | null;
  created_at?: Date;
}

/** The incident as a card: number, title, then service, severity, status and age (the exact UTC time on hover). */
export function incidentCard(incident: IncidentCard, now: Date = new Date()): string {
  const rows: Array<[string, string]> = [];
  if (incident.service_name !== undefined) rows.push(['Service', incident.service_name === null ? 'No service' : html(incident.service_name)]);
  if (incident.severity !== undefined) rows.push(['Severity', badge(incident.severity, SEVERITY_COLOURS)]);
  rows.push(['Status', badge(incident.status, STATUS_COLOURS)]);
  if (incident.created_at) {
    const exact = incident.created_at.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
    rows.push(['Opened', `<time datetime="${incident.created_at.toISOString()}" title="${exact}">${ageInWords(incident.created_at, now)}</time>`]);
  }
  return `<section class="card" aria-label="Incident #${incident.number}">
<p class="number">#${incident.number}</p>
<h1>${html(incident.title)}</h1>
<dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>
</section>`;
}

/** The one button: a form posting back to the same link (the POST acts; the GET never does). */
export const actionForm = (label: string): string =>
  `<form method="post"><button type="submit">${html(label)}</button></form>
<p class="hint">Opening this page changed nothing. The button acts once.</p>`;

/** What the click did, as a coloured notice: done, nothing changed, or the link is not valid. */
export const notice = (kind: 'done' | 'unchanged' | 'invalid', text: string): string => `<p class="notice ${kind}" role="status">${html(text)}</p>`;

/** A link to the incident in the dashboard (same origin as the link page). */
export const incidentLink = (incident: { id: string; number: number }): string =>
  `<a class="button" href="/incidents/${encodeURIComponent(incident.id)}">Open incident #${incident.number}</a>`;
