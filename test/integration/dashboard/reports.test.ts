import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { ALL_ROLES, dashboardFixture, expectDashboardError, workspaceWithRoles } from '../../support/dashboard';
import { download, ReportSeed, utcDayDaysAgo, utcMidnightDaysAgo } from '../../support/report-fixture';

const fx = dashboardFixture();

const HOUR = 3_600_000;
/** Midnight UTC three days ago: the seeded incidents open that day and the next. */
const T = utcMidnightDaysAgo(3);
const plus = (hours: number) => new Date(T.getTime() + hours * HOUR);
const DAY_T = utcDayDaysAgo(3);
const RANGE = `${utcDayDaysAgo(5)} to ${utcDayDaysAgo(0)}`;

type World = Awaited<ReturnType<typeof seedWorld>>;

/**
 * A PRO workspace: teams Ops (services API, Web) and Data (service DB); six incidents with known
 * acknowledge and resolve times, pages to three people in three time zones, and alerts from two
 * sources. Another workspace has an incident, pages and alerts of its own in the same days.
 */
async function seedWorld() {
  const seed = new ReportSeed(fx.stack.orm);
  const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
  const org = ws.organizationId;
  await seed.setPlan(org, 'PRO');
  const ops = await seed.team(org, 'Ops');
  const data = await seed.team(org, 'Data');
  const api = await seed.service(org, ops, 'API');
  const web = await seed.service(org, ops, 'Web');
  const db = await seed.service(org, data, 'DB');
  await seed.incident(org, {
    serviceId: api,
    teamId: ops,
    createdAt: plus(10),
    severity: 'CRITICAL',
    title: 'API down',
    moves: [
      { to: 'ACKNOWLEDGED', after: 60 },
      { to: 'RESOLVED', after: 600 },
    ],
  });
  // Reopened and handled again later: only the first acknowledgement and resolve count.
  await seed.incident(org, {
    serviceId: api,
    teamId: ops,
    createdAt: plus(11),
    moves: [
      { to: 'ACKNOWLEDGED', after: 120 },
      { to: 'RESOLVED', after: 1800 },
      { to: 'TRIGGERED', after: 2000 },
      { to: 'ACKNOWLEDGED', after: 2100 },
      { to: 'RESOLVED', after: 2500 },
    ],
  });
  await seed.incident(org, {
    serviceId: api,
    teamId: ops,
    createdAt: plus(12),
    moves: [
      { to: 'ACKNOWLEDGED', after: 600 },
      { to: 'RESOLVED', after: 3600 },
      { to: 'CLOSED', after: 4000 },
    ],
  });
  // 20:00 UTC on day T is 05:00 the next day in Tokyo.
  await seed.incident(org, { serviceId: web, teamId: ops, createdAt: plus(20), severity: 'LOW', moves: [{ to: 'ACKNOWLEDGED', after: 30 }] });
  const d1 = await seed.incident(org, {
    serviceId: db,
    teamId: data,
    createdAt: plus(33),
    severity: 'MEDIUM',
    moves: [
      { to: 'ACKNOWLEDGED', after: 300 },
      { to: 'RESOLVED', after: 900 },
    ],
  });
  await seed.incident(org, { serviceId: db, teamId: data, createdAt: plus(34), severity: 'MEDIUM' });
  // Older than the range asked for: never counted.
  const old = await seed.incident(org, { serviceId: api, teamId: ops, createdAt: utcMidnightDaysAgo(20), moves: [{ to: 'ACKNOWLEDGED', after: 1 }] });

  const owner = ws.owner.userId; // no time zone: UTC
  const tokyo = ws.as.MEMBER.userId;
  const newYork = ws.as.TEAM_MANAGER.userId;
  await seed.setTimeZone(tokyo, 'Asia/Tokyo');
  await seed.setTimeZone(newYork, 'America/New_York');
  const day = 24; // pages on day T+1, at UTC hours:
  const pages: Array<[string, string, number, string?]> = [
    [owner, 'email', day + 14], // UTC 14:00 day; Tokyo 23:00 night; New York 09:00 day
    [owner, 'sms', day + 3], // UTC 03:00 night; Tokyo 12:00; New York 22:00 night
    [owner, 'email', day + 23.5], // UTC 23:30 night; Tokyo 08:30; New York 18:30
    [tokyo, 'push', day + 14],
    [tokyo, 'sms', day + 3],
    [tokyo, 'email', day + 12, 'failed'], // Tokyo 21:00: still day
    [newYork, 'voice', day + 3],
    [newYork, 'sms', day + 12], // New York 07:00: day again
    [newYork, 'sms', day + 3, 'skipped'], // never sent: not a page
  ];
  for (const [user, channel, hours, status] of pages) await seed.page(org, d1.id, user, channel, plus(hours), status);
  const apiSource = await seed.source(org, api, 'Prometheus');
  const dbSource = await seed.source(org, db, 'pg-exporter');
  await seed.alerts(org, apiSource, api, d1.id, 5, plus(10));
  await seed.alerts(org, dbSource, db, d1.id, 2, plus(33));
  await seed.alerts(org, dbSource, db, old.id, 10, utcMidnightDaysAgo(20));

  const other = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
  const otherTeam = await seed.team(other.organizationId, 'Ops');
  const otherService = await seed.service(other.organizationId, otherTeam, 'API');
  const theirs = await seed.incident(other.organizationId, {
    serviceId: otherService,
    teamId: otherTeam,
    createdAt: plus(10),
    moves: [
      { to: 'ACKNOWLEDGED', after: 5 },
      { to: 'RESOLVED', after: 5 },
    ],
  });
  await seed.page(other.organizationId, theirs.id, other.owner.userId, 'email', plus(day + 3));
  await seed.alerts(other.organizationId, await seed.source(other.organizationId, otherService, 'Noisy'), otherService, theirs.id, 50, plus(10));
  return { ws, other, ids: { ops, data, api, web, db, owner, tokyo, newYork } };
}

const generate = (session: { cookie: string; csrf: string }, body: unknown) => fx.api('POST', '/reports/generate', { session, body });

let world: World;
beforeAll(async () => {
  world = await seedWorld();
});

describe('POST /api/reports/generate: figures', () => {
  it('when a detailed report is asked for, then MTTA and MTTR (mean, p50, p90) are exact overall, per service and per team, from the first acknowledgement and resolve on each timeline', async () => {
    const res = await generate(world.ws.owner, { type: 'detailed', dateRange: RANGE });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: expect.any(String) });
    const r = res.body.data;
    expect(r.range).toEqual({ from: utcDayDaysAgo(5), to: utcDayDaysAgo(0), time_zone: 'UTC', time_zone_source: 'default_utc' });
    expect(r.mtta).toEqual({ count: 5, mean: 222, p50: 120, p90: 480 });
    expect(r.mttr).toEqual({ count: 4, mean: 1725, p50: 1350, p90: 3060 });
    const { ops, data, api, web, db } = world.ids;
    expect(r.per_service).toEqual([
      {
        service_id: api,
        service: 'API',
        team_id: ops,
        team: 'Ops',
        incidents: 3,
        mtta: { count: 3, mean: 260, p50: 120, p90: 504 },
        mttr: { count: 3, mean: 2000, p50: 1800, p90: 3240 },
      },
      {
        service_id: db,
        service: 'DB',
        team_id: data,
        team: 'Data',
        incidents: 2,
        mtta: { count: 1, mean: 300, p50: 300, p90: 300 },
        mttr: { count: 1, mean: 900, p50: 900, p90: 900 },
      },
      {
        service_id: web,
        service: 'Web',
        team_id: ops,
        team: 'Ops',
        incidents: 1,
        mtta: { count: 1, mean: 30, p50: 30, p90: 30 },
        mttr: { count: 0, mean: null, p50: null, p90: null },
      },
    ]);
    expect(r.per_team).toEqual([
      { team_id: ops, team: 'Ops', incidents: 4, mtta: { count: 4, mean: 202.5, p50: 90, p90: 456 }, mttr: { count: 3, mean: 2000, p50: 1800, p90: 3240 } },
      { team_id: data, team: 'Data', incidents: 2, mtta: { count: 1, mean: 300, p50: 300, p90: 300 }, mttr: { count: 1, mean: 900, p50: 900, p90: 900 } },
    ]);
  });

  it("when a detailed report is asked for, then incidents are counted by severity, status and day, and only this workspace's in the range", async () => {
    const r = (await generate(world.ws.owner, { type: 'detailed', dateRange: RANGE })).body.data;
    expect(r.totals).toEqual({ incidents: 6, acknowledged: 5, resolved: 4, open: 2, alerts: 7, pages: 8 });
    expect(r.by_severity).toEqual([
      { severity: 'CRITICAL', count: 1 },
      { severity: 'HIGH', count: 2 },
      { severity: 'MEDIUM', count: 2 },
      { severity: 'LOW', count: 1 },
      { severity: 'INFO', count: 0 },
    ]);
    expect(r.by_status).toEqual([
      { status: 'TRIGGERED', count: 1 },
      { status: 'ACKNOWLEDGED', count: 1 },
      { status: 'INVESTIGATING', count: 0 },
      { status: 'RESOLVED', count: 3 },
      { status: 'CLOSED', count: 1 },
    ]);
    expect(r.incidents_per_day).toHaveLength(6);
    expect(r.incidents_per_day.filter((d: { count: number }) => d.count > 0)).toEqual([
      { day: DAY_T, count: 4 },
      { day: utcDayDaysAgo(2), count: 2 },
    ]);
    expect(r.incidents.map((i: { title: string; tta: number | null; ttr: number | null }) => [i.title, i.tta, i.ttr])[0]).toEqual(['API down', 60, 600]);
    expect(r.incidents).toHaveLength(6);
  });

  it('when pages went out, then they are counted per channel (skipped ones are not pages) and night pages per person by their own clock', async () => {
    const r = (await generate(world.ws.owner, { type: 'detailed', dateRange: RANGE })).body.data;
    expect(r.pages_by_channel).toEqual([
      { channel: 'email', pages: 3, failed: 1 },
      { channel: 'sms', pages: 3, failed: 0 },
      { channel: 'push', pages: 1, failed: 0 },
      { channel: 'voice', pages: 1, failed: 0 },
    ]);
    const { owner, tokyo, newYork } = world.ids;
    expect(r.night_pages.map((p: Record<string, unknown>) => [p.user_id, p.time_zone, p.pages, p.night_pages])).toEqual([
      [owner, 'UTC', 3, 2],
      [tokyo, 'Asia/Tokyo', 3, 1],
      [newYork, 'America/New_York', 2, 1],
    ]);
  });

  it('when alerts came in, then the noisiest sources of this workspace in the range are listed with their counts', async () => {
    const r = (await generate(world.ws.owner, { type: 'detailed', dateRange: RANGE })).body.data;
    expect(r.noisy_sources).toEqual([
      { source_id: expect.any(String), source: 'Prometheus', service: 'API', alerts: 5 },
      { source_id: expect.any(String), source: 'pg-exporter', service: 'DB', alerts: 2 },
    ]);
  });

  it('when another workspace generates a report over the same days, then it sees only its own incident, page and alerts', async () => {
    const r = (await generate(world.other.owner, { type: 'detailed' })).body.data;
    expect(r.totals).toEqual({ incidents: 1, acknowledged: 1, resolved: 1, open: 0, alerts: 50, pages: 1 });
    expect(r.incidents.map((i: { service: string }) => i.service)).toEqual(['API']);
    expect(r.noisy_sources.map((s: { source: string }) => s.source)).toEqual(['Noisy']);
  });

  it.each([
    ['summary', ['totals', 'mtta', 'mttr', 'by_severity', 'by_status', 'incidents_per_day']],
    ['performance', ['mtta', 'mttr', 'per_service', 'per_team']],
    ['incidents', ['incidents']],
  ])('when a %s report is asked for, then it shows its own parts', async (type, parts) => {
    const r = (await generate(world.ws.owner, { type, dateRange: RANGE })).body.data;
    expect(Object.keys(r).sort()).toEqual(['generated_at', 'range', 'type', ...parts].sort());
    expect(r.type).toBe(type);
  });

  it('when the reader has a time zone, then the days of the range are theirs (an incident at 20:00 UTC falls on the next day in Tokyo)', async () => {
    const utc = (await generate(world.ws.owner, { type: 'summary', dateRange: `${DAY_T} to ${DAY_T}` })).body.data;
    const tokyo = (await generate(world.ws.as.MEMBER, { type: 'summary', dateRange: `${DAY_T} to ${DAY_T}` })).body.data;
    expect(utc.totals.incidents).toBe(4);
    expect(tokyo.range).toMatchObject({ time_zone: 'Asia/Tokyo', time_zone_source: 'user' });
    expect(tokyo.totals.incidents).toBe(3);
  });

  it('when no range is given, then it is the last 30 days up to today', async () => {
    const r = (await generate(world.ws.owner, { type: 'summary' })).body.data;
    expect(r.range).toMatchObject({ from: utcDayDaysAgo(29), to: utcDayDaysAgo(0) });
    expect(r.totals.incidents).toBe(7);
  });

  it.each(ALL_ROLES)('when a %s generates a report, then it is allowed', async (role) => {
    const res = await generate(world.ws.as[role], { type: 'summary', dateRange: RANGE });
    expect(res.status).toBe(200);
    expect(res.body.data.totals.incidents).toBe(6);
  });
});

describe('POST /api/reports/generate: CSV and PDF', () => {
  it("when CSV is asked for a performance report, then it is an RFC 4180 attachment whose figures are the JSON report's", async () => {
    const res = await download(fx.stack.urls.app, world.ws.owner, { type: 'performance', dateRange: RANGE, format: 'csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="klaxon-performance-${utcDayDaysAgo(5)}-${utcDayDaysAgo(0)}.csv"`);
    const text = res.bytes.toString('utf8');
    expect(text.split('\r\n')[0]).toBe('section,group,metric,value');
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    const json = (await generate(world.ws.owner, { type: 'performance', dateRange: RANGE })).body.data;
    const value = (section: string, group: string, metric: string) =>
      rows.find((r) => r.section === section && r.group === group && r.metric === metric)?.value;
    for (const s of json.per_service) {
      for (const metric of ['mean', 'p50', 'p90'] as const) {
        expect(value('service', s.service, `mtta_${metric}`)).toBe(String(s.mtta[metric]));
        expect(value('service', s.service, `mttr_${metric}`)).toBe(s.mttr[metric] === null ? '' : String(s.mttr[metric]));
      }
    }
    expect(value('team', 'Ops', 'mtta_p90')).toBe('456');
    expect(value('mttr', 'overall', 'mttr_mean')).toBe('1725');
  });

  it('when CSV is asked for an incidents report, then there is a header and one row per incident matching the JSON', async () => {
    const res = await download(fx.stack.urls.app, world.ws.owner, { type: 'incidents', dateRange: RANGE, format: 'csv' });
    const rows = parse(res.bytes.toString('utf8'), { columns: true }) as Array<Record<string, string>>;
    const json = (await generate(world.ws.owner, { type: 'incidents', dateRange: RANGE })).body.data.incidents;
    expect(rows).toHaveLength(6);
    expect(rows.map((r) => [Number(r.number), r.title, r.service, r.severity, r.status, r.created_at, r.tta_seconds, r.ttr_seconds])).toEqual(
      json.map((i: any) => [
        i.number,
        i.title,
        i.service,
        i.severity,
        i.status,
        i.created_at,
        i.tta === null ? '' : String(i.tta),
        i.ttr === null ? '' : String(i.ttr),
      ]),
    );
  });

  it('when a PDF is asked for, then it is a real document: the first page renders, and its text has the title and the figures', async () => {
    const res = await download(fx.stack.urls.app, world.ws.owner, { type: 'summary', dateRange: RANGE, format: 'pdf' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="klaxon-summary-${utcDayDaysAgo(5)}-${utcDayDaysAgo(0)}.pdf"`);
    expect(res.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-report-'));
    try {
      const file = path.join(dir, 'report.pdf');
      writeFileSync(file, res.bytes);
      execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-png', '-r', '50', file, path.join(dir, 'page')]);
      const png = path.join(dir, 'page-1.png');
      expect(statSync(png).size).toBeGreaterThan(1000);
      expect(readFileSync(png).subarray(1, 4).toString('latin1')).toBe('PNG');
      const text = execFileSync('pdftotext', ['-f', '1', '-l', '1', '-layout', file, '-'], { encoding: 'utf8' });
      expect(text).toContain('Klaxon summary report');
      expect(text).toContain(`${utcDayDaysAgo(5)} to ${utcDayDaysAgo(0)}`);
      expect(text).toMatch(/MTTA \(to acknowledge\)\s+3 min 42 s\s+2 min\s+8 min/); // 222 s, 120 s, 480 s
      expect(text).toContain('Incidents per day');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(['detailed', 'performance', 'incidents'])('when a %s PDF is asked for, then it renders with its title', async (type) => {
    const res = await download(fx.stack.urls.app, world.ws.owner, { type, dateRange: RANGE, format: 'pdf' });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-report-'));
    try {
      const file = path.join(dir, 'report.pdf');
      writeFileSync(file, res.bytes);
      expect(execFileSync('pdftotext', ['-f', '1', '-l', '1', file, '-'], { encoding: 'utf8' })).toContain(`Klaxon ${type} report`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('POST /api/reports/generate: bad requests', () => {
  it.each([
    ['an end before its start', { type: 'summary', dateRange: `${utcDayDaysAgo(1)} to ${utcDayDaysAgo(3)}` }, /^dateRange: the end .* is before the start/],
    [
      "a start before the plan's 90-day history window",
      { type: 'summary', dateRange: `${utcDayDaysAgo(91)} to ${utcDayDaysAgo(0)}` },
      new RegExp(`^dateRange: .*history window of 90 days \\(${utcDayDaysAgo(90)} to ${utcDayDaysAgo(0)}`),
    ],
    ['a malformed range', { type: 'summary', dateRange: 'last week' }, /^dateRange: expected "YYYY-MM-DD to YYYY-MM-DD"/],
    ['a too-long range', { type: 'summary', dateRange: 'x'.repeat(41) }, /dateRange/],
    ['an unknown format', { type: 'summary', format: 'xlsx' }, /format/],
    ['an unknown type', { type: 'weekly' }, /type/],
    ['a type of the wrong kind', { type: 5 }, /type/],
    ['no type', {}, /type/],
    ['an unknown field', { type: 'summary', colour: 'red' }, /colour/],
  ])('when the request has %s, then it is 400 naming the field', async (_what, body, message) => {
    expectDashboardError(await generate(world.ws.owner, body), 400, 'invalid_request', message);
  });

  it('when a FREE workspace asks for more than its 7 days, then it is 400 naming dateRange and the window; the default range fits the window', async () => {
    expectDashboardError(
      await generate(world.other.owner, { type: 'summary', dateRange: `${utcDayDaysAgo(8)} to ${utcDayDaysAgo(0)}` }),
      400,
      'invalid_request',
      /dateRange: .*history window of 7 days/,
    );
    const ok = await generate(world.other.owner, { type: 'summary' });
    expect(ok.body.data.range).toMatchObject({ from: utcDayDaysAgo(7), to: utcDayDaysAgo(0) });
  });
});
