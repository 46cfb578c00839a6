import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createService, createTeam } from '../../src/services/workspace';
import { dashboardInBrowser, logInInBrowser, saveScreenshot, sidewaysOverflow } from '../support/browser';
import { signUpAndLogIn } from '../support/dashboard';
import { ReportSeed, utcDayDaysAgo, utcMidnightDaysAgo } from '../support/report-fixture';
import { waitFor } from '../support/wait';

// Reports and monitoring in a real browser against the real stack: a report seen as charts and
// downloaded as PDF (rendered with pdftoppm) and CSV; a heartbeat and a monitor made in the page,
// with their uptime bars.

const suite = dashboardInBrowser({
  // The monitor checks this stack's own /healthz, on 127.0.0.1.
  stack: { env: { MONITOR_ALLOW_PRIVATE: 'true' } },
  page: { acceptDownloads: true },
});
let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'klaxon-reports-'));
});
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const app = () => suite.app;
const HOUR = 3_600_000;

/** A workspace with three incidents two and one days ago, on two services, one acknowledged and resolved. */
async function workspaceWithIncidents() {
  const owner = await signUpAndLogIn(app(), suite.stack.orm);
  const seed = new ReportSeed(suite.stack.orm);
  const org = owner.organizationId;
  const ops = await seed.team(org, 'Ops');
  const api = await seed.service(org, ops, 'API');
  const web = await seed.service(org, ops, 'Web');
  const t = utcMidnightDaysAgo(2).getTime();
  await seed.incident(org, {
    serviceId: api,
    teamId: ops,
    createdAt: new Date(t + 10 * HOUR),
    severity: 'CRITICAL',
    title: 'API down',
    moves: [
      { to: 'ACKNOWLEDGED', after: 120 },
      { to: 'RESOLVED', after: 1800 },
    ],
  });
  await seed.incident(org, {
    serviceId: api,
    teamId: ops,
    createdAt: new Date(t + 11 * HOUR),
    severity: 'HIGH',
    title: 'API slow',
    moves: [{ to: 'ACKNOWLEDGED', after: 300 }],
  });
  await seed.incident(org, { serviceId: web, teamId: ops, createdAt: new Date(t + 30 * HOUR), severity: 'LOW', title: 'Web certificate expires soon' });
  return owner;
}

/** Clicks a download button and saves the file; its suggested name too. */
async function download(p: Page, button: string): Promise<{ file: string; name: string }> {
  const [file] = await Promise.all([p.waitForEvent('download'), p.getByRole('button', { name: button }).click()]);
  const saved = path.join(tmp, file.suggestedFilename());
  await file.saveAs(saved);
  return { file: saved, name: file.suggestedFilename() };
}

describe('reports and monitoring in Chromium', () => {
  it('when a detailed report over five days is opened, then its charts show, and Download PDF and Download CSV give the same report as files (the PDF renders with pdftoppm)', async () => {
    const owner = await workspaceWithIncidents();
    await logInInBrowser(suite.page, app(), owner);
    await suite.page.getByRole('link', { name: 'Reports' }).click();
    await suite.page.getByRole('heading', { name: 'Reports' }).waitFor();

    await suite.page.getByRole('combobox', { name: 'Report type' }).click();
    await suite.page.getByRole('option', { name: 'Detailed' }).click();
    const [from, to] = [utcDayDaysAgo(5), utcDayDaysAgo(0)];
    await suite.page.getByLabel('From').fill(from);
    await suite.page.getByLabel('To').fill(to);

    const perDay = suite.page.getByRole('figure', { name: 'Incidents per day' });
    await perDay.waitFor();
    // Stacked by severity: one bar per severity that day, three in all.
    await perDay.locator('.recharts-bar-rectangle path').first().waitFor();
    expect(await perDay.locator('.recharts-bar-rectangle path').count()).toBe(3);
    const incidents = suite.page.getByRole('table', { name: 'Incidents' });
    await incidents.getByRole('cell', { name: 'Web certificate expires soon' }).waitFor();
    expect(await suite.page.getByRole('group', { name: 'Incidents' }).textContent()).toMatch(/^Incidents3/);
    await saveScreenshot(suite.page, 'report');

    const pdf = await download(suite.page, 'Download PDF');
    expect(pdf.name).toBe(`klaxon-detailed-${from}-${to}.pdf`);
    expect(readFileSync(pdf.file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pngDir = mkdtempSync(path.join(tmp, 'png-'));
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', pdf.file, path.join(pngDir, 'page')]);
    const pngs = readdirSync(pngDir).filter((f) => f.endsWith('.png'));
    expect(pngs).toHaveLength(1);
    const png = readFileSync(path.join(pngDir, pngs[0]));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // An A4 or Letter page at 50 dpi is about 413-425 px wide; a drawn page compresses to kilobytes, a blank one to a few hundred bytes.
    expect(png.readUInt32BE(16)).toBeGreaterThan(400);
    expect(png.length).toBeGreaterThan(5_000);

    const csv = await download(suite.page, 'Download CSV');
    expect(csv.name).toBe(`klaxon-detailed-${from}-${to}.csv`);
    const lines = readFileSync(csv.file, 'utf8').split('\r\n');
    expect(lines[0]).toBe('section,group,metric,value');
    expect(lines).toContain('totals,overall,incidents,3');
  }, 120_000);

  it('when a heartbeat and a monitor are made in the page, then each shows its state and an uptime bar, pausing and deleting (asked first) work, and a 390 px phone does not scroll sideways', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    const team = await createTeam(suite.stack.orm, { organizationId: owner.organizationId, name: 'Ops' });
    await createService(suite.stack.orm, { organizationId: owner.organizationId, teamId: team.id, name: 'Backups' });
    await logInInBrowser(suite.page, app(), owner);
    await suite.page.getByRole('link', { name: 'Heartbeats and monitors' }).click();
    await suite.page.getByText('No heartbeats yet').waitFor();

    const form = suite.page.getByRole('form', { name: 'New heartbeat' });
    await form.getByRole('textbox', { name: /^Name/ }).fill('nightly backup');
    await form.getByRole('combobox', { name: /^Service/ }).click();
    await suite.page.getByRole('option', { name: 'Backups' }).click();
    await form.getByRole('textbox', { name: /^Period \(seconds\)/ }).fill('86400');
    await form.getByRole('button', { name: 'Create heartbeat' }).click();
    await suite.page.getByRole('button', { name: 'Copy the ping URL of nightly backup' }).waitFor();
    const pingUrl = (await form.locator('pre').textContent())!.trim();
    expect(pingUrl.startsWith(`${suite.stack.urls.ingest}/ping/`)).toBe(true);
    expect((await fetch(pingUrl)).status).toBeLessThan(300);

    await suite.page.getByRole('button', { name: 'Add monitor' }).click();
    const dialog = suite.page.getByRole('dialog', { name: 'New HTTP monitor' });
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Klaxon itself');
    await dialog.getByRole('combobox', { name: /^Service/ }).click();
    await suite.page.getByRole('option', { name: 'Backups' }).click();
    await dialog.getByRole('textbox', { name: /^URL/ }).fill(`${app()}/healthz`);
    await dialog.getByRole('textbox', { name: /^Timeout \(seconds\)/ }).fill('5');
    await dialog.getByRole('button', { name: 'Create monitor' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Its first check runs at once, the ping landed: after a reload both read as up, with a figure.
    const monitorRow = suite.page.getByRole('row').filter({ hasText: 'Klaxon itself' });
    const heartbeatRow = suite.page.getByRole('row').filter({ hasText: 'nightly backup' });
    await waitFor(
      async () => {
        await suite.page.reload();
        await monitorRow.getByText(/^(UP|DOWN|PENDING)$/).waitFor();
        return (await monitorRow.getByText('UP', { exact: true }).count()) === 1;
      },
      30_000,
      'the monitor to be UP',
    );
    await heartbeatRow.getByText('Up', { exact: true }).waitFor();
    await monitorRow.getByRole('img', { name: 'Klaxon itself: 100 % over 30 days' }).waitFor();
    await heartbeatRow.getByRole('img', { name: 'nightly backup: 100 % over 30 days' }).waitFor();
    expect(await monitorRow.getByText(/^200 in \d+ ms/).count()).toBe(1);

    await heartbeatRow.getByRole('button', { name: 'Pause nightly backup' }).click();
    await heartbeatRow.getByText('Paused', { exact: true }).waitFor();
    await heartbeatRow.getByRole('button', { name: 'Resume nightly backup' }).waitFor();
    await heartbeatRow.locator('button[data-loading]').waitFor({ state: 'detached' });
    await saveScreenshot(suite.page, 'monitoring');

    await monitorRow.getByRole('button', { name: 'Delete Klaxon itself' }).click();
    const confirm = suite.page.getByRole('dialog', { name: 'Delete monitor Klaxon itself?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await suite.page.getByText('No monitors yet').waitFor();
    expect(await monitorRow.count()).toBe(0);

    const phone = await suite.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      await logInInBrowser(phone, app(), owner);
      await phone.goto(`${app()}/monitoring`);
      await phone.getByRole('img', { name: /^nightly backup: / }).waitFor();
      expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
      await saveScreenshot(phone, 'monitoring-390');
      await phone.goto(`${app()}/reports`);
      await phone.getByRole('button', { name: 'Download PDF' }).waitFor();
      expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
    } finally {
      await phone.close();
    }
  }, 120_000);
});
