import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { Client as PgClient } from 'pg';
import { buildIsCurrent, chooseEntry, fingerprint, writeStamp } from '../../bin/build-stamp';
import { PROJECT_ROOT } from '../../src/paths';
import { WORKFLOWS_PATH, workflowSource } from '../../src/temporal/worker';

/**
 * The compiled build as production runs it, and the rule that keeps it from answering for
 * edited sources. The build happens in a copy of the project: this checkout's dist/ is the
 * developer's (something may be running from it), and the copy can be edited freely.
 */

/** What the build reads (Dockerfile's build stage copies the same). */
const BUILD_INPUTS = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'bin', 'src', 'api', 'workflows', 'activities'];
const BUILD_TIMEOUT = 180_000;

let tmp: string;
let copy: string;
let preload: string;

/** A project folder beside the real one: the given entries copied, node_modules linked. */
function projectCopy(dir: string, from: string, entries: string[]): string {
  mkdirSync(dir);
  for (const entry of entries) cpSync(path.join(from, entry), path.join(dir, entry), { recursive: true });
  symlinkSync(realpathSync(path.join(PROJECT_ROOT, 'node_modules')), path.join(dir, 'node_modules'));
  return dir;
}

/** The same server's URL for another database (the query, e.g. a socket host, kept). */
function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

const build = (root: string) => execFileSync(process.execPath, [path.join(root, 'bin', 'build.js')], { encoding: 'utf8', timeout: BUILD_TIMEOUT });

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** Which CLI module the process loaded, reported by the preload on exit. */
  ran: { dist: boolean; tsx: boolean };
}

/** Runs `klaxon` from a project folder, as `node bin/klaxon.js` would. */
function klaxonIn(root: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--require', preload, path.join(root, 'bin', 'klaxon.js'), ...args],
      { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const report = /\[entry\] (\{.*\})/.exec(stderr);
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr, ran: report ? JSON.parse(report[1]) : { dist: false, tsx: false } });
      },
    );
  });
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'klaxon-build-'));
  preload = path.join(tmp, 'entry-report.js');
  writeFileSync(
    preload,
    `process.on('exit', () => {
      const loaded = Object.keys(require.cache);
      process.stderr.write('[entry] ' + JSON.stringify({ dist: loaded.some((f) => f.endsWith('/dist/src/cli/main.js')), tsx: loaded.some((f) => f.includes('/node_modules/tsx/')) }) + '\\n');
    });\n`,
  );
  copy = projectCopy(path.join(tmp, 'project'), PROJECT_ROOT, BUILD_INPUTS);
  build(copy);
}, BUILD_TIMEOUT);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the compiled build', () => {
  it('when built, then `klaxon --help` answers from dist/ without loading tsx', async () => {
    const run = await klaxonIn(copy, ['--help']);
    expect(run.stdout).toContain('Usage: klaxon');
    expect({ code: run.code, ran: run.ran }).toEqual({ code: 0, ran: { dist: true, tsx: false } });
  });

  it('when an empty database is migrated from dist/, then the compiled migrations are the committed ones; a database migrated from the sources is up to date', async () => {
    const committed = readdirSync(path.join(PROJECT_ROOT, 'src', 'db', 'migrations'))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    const server = process.env.KLAXON_TEST_DATABASE_URL!;
    const empty = `${new URL(server).pathname.slice(1)}_built`;
    const admin = new PgClient({ connectionString: withDatabase(server, 'postgres') });
    await admin.connect();
    try {
      await admin.query(`create database "${empty}"`);
      const fresh = await klaxonIn(copy, ['migrate'], { DATABASE_URL: withDatabase(server, empty) });
      expect({ code: fresh.code, stderr: fresh.stderr.replace(/\[entry\].*\n/, ''), ran: fresh.ran }).toEqual({
        code: 0,
        stderr: '',
        ran: { dist: true, tsx: false },
      });
      expect(
        fresh.stdout
          .trim()
          .replace(/^applied: /, '')
          .split(', ')
          .sort(),
      ).toEqual(committed);

      const current = await klaxonIn(copy, ['migrate'], { DATABASE_URL: process.env.KLAXON_TEST_DATABASE_URL! });
      expect(current.stdout).toBe('database is up to date\n');
    } finally {
      await admin.query(`drop database if exists "${empty}" with (force)`);
      await admin.end();
    }
  });

  it('when `klaxon oncall` asks about an unknown schedule from dist/, then it answers the not-found error', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const run = await klaxonIn(copy, ['oncall', '--schedule', id, '--json'], { DATABASE_URL: process.env.KLAXON_TEST_DATABASE_URL! });
    expect({ code: run.code, error: run.stderr.split('\n')[0], ran: run.ran }).toEqual({
      code: 2,
      error: `klaxon: error: schedule ${id} not found`,
      ran: { dist: true, tsx: false },
    });
  });

  it('when the worker runs from dist/, then it takes the prebuilt workflow bundle, which replays a recorded history; from the sources it bundles at start', async () => {
    const worker = path.join(copy, 'dist', 'src', 'temporal', 'worker.js');
    const chosen = execFileSync(process.execPath, ['-e', `process.stdout.write(JSON.stringify(require(${JSON.stringify(worker)}).workflowSource()))`], {
      encoding: 'utf8',
    });
    const bundle = path.join(copy, 'dist', 'workflow-bundle.js');
    expect(JSON.parse(chosen)).toEqual({ workflowBundle: { codePath: bundle } });
    expect(workflowSource()).toEqual({ workflowsPath: WORKFLOWS_PATH });

    const history = historyFromJSON(
      JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'test', 'histories', 'v6-incident-paging-two-steps-acknowledged.json'), 'utf8')),
    );
    await expect(Worker.runReplayHistory({ workflowBundle: { codePath: bundle } }, history, 'replay-built')).resolves.toBeUndefined();
  });

  it(
    'when a source is edited after the build, then `klaxon` runs the sources and shows the edit, and a rebuild answers from dist/ with it',
    async () => {
      const main = path.join(copy, 'src', 'cli', 'main.ts');
      writeFileSync(main, readFileSync(main, 'utf8').replace("'Klaxon: alerting and incident response on Temporal'", "'Klaxon, edited after the build'"));

      const edited = await klaxonIn(copy, ['--help']);
      expect({ ran: edited.ran, edit: edited.stdout.includes('Klaxon, edited after the build') }).toEqual({ ran: { dist: false, tsx: true }, edit: true });

      build(copy);
      const rebuilt = await klaxonIn(copy, ['--help']);
      expect({ ran: rebuilt.ran, edit: rebuilt.stdout.includes('Klaxon, edited after the build') }).toEqual({ ran: { dist: true, tsx: false }, edit: true });
    },
    BUILD_TIMEOUT,
  );

  it('when an image holds bin/ and dist/ but no sources (the Dockerfile runtime stage), then `klaxon` runs dist/', async () => {
    const image = projectCopy(path.join(tmp, 'image'), copy, ['package.json', 'bin', 'dist']);
    const run = await klaxonIn(image, ['--help']);
    expect({ code: run.code, ran: run.ran }).toEqual({ code: 0, ran: { dist: true, tsx: false } });
  });
});

describe('when the build counts as current (bin/build-stamp.js)', () => {
  // A small tree of its own: each case changes it, then stamps it again as a build would.
  let root: string;
  const restamp = () => writeStamp(root, { dirs: ['src'], files: ['tsconfig.json'], inputs: fingerprint(root, ['src'], ['tsconfig.json']) });
  beforeEach(() => {
    root = mkdtempSync(path.join(tmp, 'stamp-'));
    mkdirSync(path.join(root, 'src', 'cli'), { recursive: true });
    mkdirSync(path.join(root, 'dist', 'src', 'cli'), { recursive: true });
    writeFileSync(path.join(root, 'src', 'cli', 'main.ts'), 'export const a = 1;\n');
    writeFileSync(path.join(root, 'src', 'other.ts'), 'export const b = 2;\n');
    writeFileSync(path.join(root, 'tsconfig.json'), '{}\n');
    writeFileSync(path.join(root, 'dist', 'src', 'cli', 'main.js'), '');
    restamp();
  });
  const stale = () => expect(chooseEntry(root)).toEqual({ from: 'sources', main: path.join(root, 'src', 'cli', 'main.ts') });

  it('when nothing changed since the stamp, then dist/ runs', () => {
    expect(chooseEntry(root)).toEqual({ from: 'dist', main: path.join(root, 'dist', 'src', 'cli', 'main.js') });
  });

  it('when a source is rewritten with the same content, then the sources run', () => {
    const file = path.join(root, 'src', 'other.ts');
    utimesSync(file, new Date(), new Date(statSync(file).mtimeMs + 5000));
    stale();
  });

  it('when a source is given an older modification time (a checkout, a copy keeping times), then the sources run', () => {
    utimesSync(path.join(root, 'src', 'other.ts'), new Date(0), new Date(1_000_000));
    stale();
  });

  it('when a source is added or deleted, then the sources run', () => {
    writeFileSync(path.join(root, 'src', 'new.ts'), '');
    stale();
    unlinkSync(path.join(root, 'src', 'new.ts'));
    restamp();
    expect(buildIsCurrent(root)).toBe(true);
    unlinkSync(path.join(root, 'src', 'other.ts'));
    stale();
  });

  it('when a build file (tsconfig) changes, then the sources run', () => {
    writeFileSync(path.join(root, 'tsconfig.json'), '{ "compilerOptions": {} }\n');
    stale();
  });

  it('when the stamp or the compiled CLI is missing, then the sources run', () => {
    rmSync(path.join(root, 'dist', 'src', 'cli', 'main.js'));
    stale();
    writeFileSync(path.join(root, 'dist', 'src', 'cli', 'main.js'), '');
    expect(buildIsCurrent(root)).toBe(true);
    rmSync(path.join(root, 'dist', 'build.json'));
    stale();
  });
});
