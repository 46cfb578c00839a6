import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/net';
import { klaxon } from '../support/cli';
import { request } from '../support/http';
import { nonLoopbackAddress } from '../support/network';

/**
 * The two-command promise: `klaxon start` (what `npm start` runs) on embedded defaults, a
 * `klaxon` command beside it on the same data, Ctrl-C stopping every child, and a second start
 * finding the first one's incidents and workflows.
 */
const BIN = path.resolve(__dirname, '..', '..', 'bin', 'klaxon.js');
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-start-'));
  chmodSync(dataDir, 0o755);
  const [app, ingest, apiKey, temporal, ui] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    KLAXON_DATA_DIR: dataDir,
    APP_PORT: String(app),
    INGEST_PORT: String(ingest),
    API_KEY_PORT: String(apiKey),
    TEMPORAL_PORT: String(temporal),
    TEMPORAL_UI_PORT: String(ui),
    LOG_LEVEL: 'warn',
  };
});
const started: ChildProcess[] = [];
afterAll(() => {
  // A failed assertion must not leave a stack running: kill whatever this file started.
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  for (const line of childrenOf(dataDir)) process.kill(Number(line.split(' ')[0]), 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function start(): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [BIN, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  child.stdout!.on('data', (b) => (output += b.toString()));
  child.stderr!.on('data', (b) => (output += b.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`start did not come up:\n${output}`)), 120_000);
    child.stdout!.on('data', () => {
      if (output.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    });
    child.once('exit', (code) => reject(new Error(`start exited with ${code}:\n${output}`)));
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGINT');
  });
}

/** Processes whose command line mentions the data folder: Postgres and the dev server. */
/** The dev inbox message (`klaxon inbox list --json`) of a page about this incident title, if any. */
function pagedAbout(inbox: { messages?: Array<{ channel: string; to: string; subject: string | null; body: string }> } | undefined, title: string) {
  return inbox?.messages?.find((m) => `${m.subject ?? ''} ${m.body}`.includes(title));
}

function childrenOf(dir: string): string[] {
  try {
    return execFileSync('pgrep', ['-af', dir])
      .toString()
      .trim()
      .split('\n')
      .filter((l) => l && !l.includes('pgrep'));
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

describe('klaxon start', () => {
  it('when started twice on the same data folder, then the second run finds the incidents and workflows of the first', async () => {
    const first = await start();
    const app = `http://localhost:${env.APP_PORT}`;
    for (const line of [
      `${app}/api/v1`,
      `${app}/healthz`,
      `http://localhost:${env.INGEST_PORT}`,
      `http://localhost:${env.API_KEY_PORT}`,
      `http://localhost:${env.TEMPORAL_UI_PORT}`,
    ]) {
      expect(first.output()).toContain(line);
    }
    expect((await request('GET', `${app}/readyz`)).status).toBe(200);
    // A developer's machine: the listeners (and the dev inbox) are not open to the network.
    expect(first.output()).toContain('Listening on     127.0.0.1 only');
    await expect(fetch(`http://${nonLoopbackAddress()}:${env.APP_PORT}/healthz`)).rejects.toThrow();
    // The banner's "Dashboard" line answers: the page of the built UI.
    expect(first.output()).toContain(`Dashboard        ${app}/`);
    const page = await fetch(`${app}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect(childrenOf(dataDir).length).toBeGreaterThanOrEqual(2); // postgres and temporal

    const boot = await klaxon(['bootstrap', '--org', 'Persisted', '--email', 'p@example.test', '--password', 'a long password', '--json'], env, {
      testDatabase: false,
    });
    expect(boot.code).toBe(0);
    expect(boot.json.source.ingest_url).toMatch(new RegExp(`^http://localhost:${env.INGEST_PORT}/`));
    const base = `${app}/api/v1/organizations/${boot.json.organization_id}`;
    const token = boot.json.token.token;
    const created = await request('POST', `${base}/incidents`, {
      token,
      body: { title: 'survives restarts', severity: 'HIGH', owning_team_id: boot.json.team_id },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect((await request('POST', `${base}/incidents/${id}/acknowledge`, { token })).status).toBe(200);
    // An alert through the ingestion URL: the relay starts its incident's workflow (eagerly, on
    // the worker's connection), and the workflow answers a responder's acknowledge.
    const alert = await fetch(boot.json.source.ingest_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'disk full', severity: 'critical' }),
    });
    expect(alert.status).toBe(202);
    const alerted = ((await alert.json()) as { incident_id: string }).incident_id;
    // Bootstrap made the admin the team's on-call by email: the alert pages them (dev inbox).
    let inbox = await klaxon(['inbox', 'list', '--json'], env, { testDatabase: false });
    for (let tries = 0; !pagedAbout(inbox.json, 'disk full') && tries < 30; tries++) {
      await new Promise((r) => setTimeout(r, 500));
      inbox = await klaxon(['inbox', 'list', '--json'], env, { testDatabase: false });
    }
    expect(pagedAbout(inbox.json, 'disk full')).toMatchObject({ channel: 'email', to: 'p@example.test' });
    let acked = await request('POST', `${base}/incidents/${alerted}/acknowledge`, { token });
    for (let tries = 0; acked.status !== 200 && tries < 30; tries++) {
      await new Promise((r) => setTimeout(r, 500));
      acked = await request('POST', `${base}/incidents/${alerted}/acknowledge`, { token });
    }
    expect(acked.status).toBe(200);
    expect(acked.body.data.status).toBe('ACKNOWLEDGED');

    expect(await stop(first.child)).toBe(0);
    expect(childrenOf(dataDir)).toEqual([]);

    const second = await start();
    try {
      const again = await request('GET', `${base}/incidents/${id}`, { token });
      expect(again.body.data).toMatchObject({ id, number: 1, status: 'ACKNOWLEDGED' });
      // The workflow itself survived in the dev server's SQLite file: it answers the update.
      const resolved = await request('POST', `${base}/incidents/${id}/resolve`, { token });
      expect(resolved.status).toBe(200);
      expect(resolved.body.data.status).toBe('RESOLVED');
      const next = await request('POST', `${base}/incidents`, { token, body: { title: 'second', severity: 'LOW', owning_team_id: boot.json.team_id } });
      expect(next.body.data.number).toBe(3);
    } finally {
      expect(await stop(second.child)).toBe(0);
    }
    expect(childrenOf(dataDir)).toEqual([]);
  }, 240_000);

  it('when the configured port is taken, then start fails with a message naming it', async () => {
    const blocker = require('node:net').createServer().listen(Number(env.TEMPORAL_PORT), '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    try {
      const res = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (b) => (out += b));
        child.stderr.on('data', (b) => (out += b));
        child.once('exit', (code) => resolve({ code, out }));
      });
      expect(res.code).not.toBe(0);
      expect(res.out).toMatch(new RegExp(`${env.TEMPORAL_PORT}`));
    } finally {
      blocker.close();
    }
    expect(childrenOf(dataDir)).toEqual([]);
  }, 120_000);
});
