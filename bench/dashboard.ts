/**
 * The dashboard with 10,000 incidents in the workspace: the time from navigation to the first
 * incident on the list, in Debian's Chromium against the stack's own app listener, with the
 * browser cache off (a first visit: every asset fetched) and on (a return visit); and the size of
 * what the browser downloads, gzipped, from ui/dist. Target: first render under 1 s.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { UI_DIST_DIR } from '../src/paths';
import { launchChromium, logInInBrowser } from '../test/support/browser';
import { round } from './harness/numbers';
import type { Findings, Rate } from './harness/report';
import type { BenchStack, Say } from './harness/stack';
import { PASSWORD, REPORT_INCIDENTS, seedReportWorkspace } from './reports';

const RUNS = 7;
const TARGET_MS = 1000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gzipKb = (file: string) => gzipSync(readFileSync(path.join(UI_DIST_DIR, file)), { level: 9 }).length / 1024;

/** What index.html makes the browser fetch before the first render, and everything in assets/. */
function bundleSizes(): { initialKb: number; totalKb: number; initialFiles: string[] } {
  const html = readFileSync(path.join(UI_DIST_DIR, 'index.html'), 'utf8');
  const initialFiles = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
  const all = readdirSync(path.join(UI_DIST_DIR, 'assets')).map((f) => `assets/${f}`);
  const sum = (files: string[]) => files.reduce((kb, f) => kb + gzipKb(f), 0);
  return { initialKb: sum(initialFiles), totalKb: sum(all), initialFiles };
}

export async function benchDashboard(stack: BenchStack, say: Say): Promise<Findings> {
  say(`Dashboard: seeding ${REPORT_INCIDENTS} incidents`);
  const ws = await seedReportWorkspace(stack);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await logInInBrowser(page, stack.appUrl, { email: ws.email, password: PASSWORD });
    await page.getByRole('listitem').first().waitFor();
    const cdp = await page.context().newCDPSession(page);
    /** Navigation start to the first incident on screen, by the page's own clock. */
    const firstRender = async (): Promise<number> => {
      await page.goto(`${stack.appUrl}/`, { waitUntil: 'commit' });
      await page.getByRole('listitem').first().waitFor({ timeout: 30_000 });
      return (await page.evaluate('performance.now()')) as number;
    };
    const runs = async (cacheDisabled: boolean) => {
      await cdp.send('Network.setCacheDisabled', { cacheDisabled });
      await firstRender(); // warm-up
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) ms.push(await firstRender());
      return ms;
    };
    say('Dashboard: first render of the incident list, cache off then on');
    const cold = await runs(true);
    const warm = await runs(false);
    const sizes = bundleSizes();
    const detail = (ms: number[]) =>
      `median of ${RUNS} navigations (after one warm-up), ${REPORT_INCIDENTS} incidents in the workspace; min ${round(Math.min(...ms), 0)}, max ${round(Math.max(...ms), 0)} ms`;
    const rates: Rate[] = [
      {
        key: 'dashboard_first_render_10k_cold_ms',
        label: 'incident list first render, cache off (10k incidents)',
        value: round(median(cold), 0),
        unit: 'ms',
        target: { max: TARGET_MS },
        detail: detail(cold),
      },
      {
        key: 'dashboard_first_render_10k_warm_ms',
        label: 'incident list first render, cache on (10k incidents)',
        value: round(median(warm), 0),
        unit: 'ms',
        target: { max: TARGET_MS },
        detail: detail(warm),
      },
      {
        key: 'dashboard_initial_gzip_kb',
        label: 'dashboard download before first render (gzip)',
        value: round(sizes.initialKb, 1),
        unit: 'KB',
        detail: sizes.initialFiles.join(', '),
      },
      {
        key: 'dashboard_all_assets_gzip_kb',
        label: 'dashboard, every page loaded (gzip)',
        value: round(sizes.totalKb, 1),
        unit: 'KB',
        detail: 'every file of ui/dist/assets; admin pages load on first visit',
      },
    ];
    return {
      figures: [],
      rates,
      notes: [
        'Dashboard: Chromium (Debian package, headless) on the same machine as the stack; time from navigation start to the first incident of the list in the DOM (performance.now() in the page), session already logged in; the list shows the newest 50 with counts per status over all 10,000.',
      ],
    };
  } finally {
    await browser.close();
  }
}
