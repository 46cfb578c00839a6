import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { PROJECT_ROOT, UI_DIST_DIR } from '../../src/paths';
import { startTestStack, type TestStack } from './stack';

type StackOptions = Omit<NonNullable<Parameters<typeof startTestStack>[0]>, 'uiDistDir'>;

/** Debian's Chromium (`apt-get install chromium`, done by .ci/run), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a closed network: no update checks, no sync, no background traffic. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Builds ui/dist when its sources changed since the last build (as `klaxon start` does). Two test
 * files that find it stale at once both build into the same folder and one of them can fail; the
 * loser tries again, and by then finds the other's build fresh.
 */
export function ensureDashboardBuilt(): string {
  let stderr = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const run = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'build-ui.js'), '--if-stale'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    if (run.status === 0) return UI_DIST_DIR;
    stderr = run.stderr;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5_000 * attempt);
  }
  throw new Error(`the dashboard did not build: ${stderr}`);
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

/** Where CI keeps screenshots of the main pages. */
export const SCREENSHOTS = path.join(PROJECT_ROOT, 'test-results');

/**
 * Saves the whole page as test-results/<name>.png. From the top: a full-page capture of a
 * scrolled page draws the fixed header where the scroll left it, part-way down the image.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Logs a browser page in through the login form and waits for the incident list. */
export async function logInInBrowser(page: Page, appUrl: string, account: { email: string; password: string }): Promise<void> {
  await page.goto(`${appUrl}/login`);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Incidents' }).waitFor();
}

/**
 * A newcomer's first steps, as the README's first visit clicks them: sign up, open the dev inbox
 * (the stack needs `devInbox: true`), follow the verification link, log in; ends on the incident list.
 */
export async function signUpInBrowser(
  page: Page,
  appUrl: string,
  account: { name: string; email: string; password: string; organization_name: string },
): Promise<void> {
  await page.goto(`${appUrl}/signup`);
  await page.getByRole('textbox', { name: 'Your name' }).fill(account.name);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('textbox', { name: 'Workspace name' }).fill(account.organization_name);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByText('Check your email').waitFor();
  // Without an email provider the dev inbox holds the link: click it.
  await page.getByRole('link', { name: 'dev inbox' }).click();
  const mail = page.getByLabel(`email to ${account.email}`);
  await mail.waitFor();
  await mail.getByRole('link', { name: /\/verify\?token=/ }).click();
  await page.getByText('Email verified').waitFor();
  await logInInBrowser(page, appUrl, account);
}

/** How far a page scrolls sideways (0 or less: it fits its viewport). Runs in the page. */
export const sidewaysOverflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;

/**
 * What every browser test file sets up: the dashboard built, a real stack serving it, Chromium,
 * and a fresh page per test (closed after it). `stack` may be a function, for options that need
 * set-up first (a wire fake's env). Read the fields inside tests: they are filled in beforeAll.
 */
export function dashboardInBrowser(opts: { stack?: StackOptions | (() => Promise<StackOptions>); page?: BrowserContextOptions } = {}) {
  const suite = {} as { stack: TestStack; browser: Browser; page: Page; app: string };
  // Every page the dashboard draws must live within its Content-Security-Policy (api/http/security-headers.ts):
  // a refused script or style is a broken page in production, so it fails the test it happened in.
  let refused: string[] = [];
  beforeAll(async () => {
    const uiDistDir = ensureDashboardBuilt();
    const stackOptions = typeof opts.stack === 'function' ? await opts.stack() : (opts.stack ?? {});
    suite.stack = await startTestStack({ ...stackOptions, uiDistDir });
    suite.app = suite.stack.urls.app;
    suite.browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.stack?.stop();
  });
  beforeEach(async () => {
    refused = [];
    suite.page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 }, ...opts.page });
    suite.page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
  });
  afterEach(async () => {
    await suite.page?.close();
    expect(refused).toEqual([]);
  });
  return suite;
}
