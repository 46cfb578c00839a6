import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths';
import { signalAndWait } from '../stack/process-signals';

const KLAXON_BIN = path.join(PROJECT_ROOT, 'bin', 'klaxon.js');
/** From the sources (no current dist/) a worker bundles the workflows with webpack first. */
const READY_TIMEOUT_MS = 180_000;
/** How long after a crash a role is started again (docker-compose.yml's `restart: unless-stopped`). */
const RESTART_DELAY_MS = 1000;

/** One `klaxon api` or `klaxon worker` process of the cluster: its own log file, restarted when it dies. */
export class RoleProcess {
  private child?: ChildProcess;
  private readonly log: WriteStream;
  private stopping = false;
  private restartTimer?: NodeJS.Timeout;

  constructor(
    readonly name: string,
    readonly role: 'api' | 'worker',
    private readonly env: NodeJS.ProcessEnv,
    readonly logFile: string,
    private readonly say: (line: string) => void,
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  /** Spawns it and resolves once it says it is running; rejects if it exits or stalls first. */
  async start(): Promise<void> {
    this.log.write(`\n===== ${new Date().toISOString()} klaxon ${this.role}\n`);
    const child = spawn(process.execPath, [KLAXON_BIN, this.role], { cwd: PROJECT_ROOT, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout!.pipe(this.log, { end: false });
    child.stderr!.pipe(this.log, { end: false });
    const ready = new RegExp(`Klaxon ${this.role} is running`);
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(
        () => fail(new Error(`${this.name} was not running after ${READY_TIMEOUT_MS / 1000} s (log: ${this.logFile})`)),
        READY_TIMEOUT_MS,
      );
      const onData = (chunk: Buffer) => {
        seen = (seen + chunk.toString()).slice(-2000);
        if (ready.test(seen)) finish();
      };
      const onExit = (code: number | null, signal: string | null) =>
        fail(new Error(`${this.name} exited (${code ?? signal}) before it was running; log: ${this.logFile}`));
      const finish = () => {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.off('exit', onExit);
        resolve();
      };
      const fail = (err: Error) => {
        finish();
        child.kill('SIGKILL');
        reject(err);
      };
      child.stdout!.on('data', onData);
      child.once('exit', onExit);
    });
    child.once('exit', (code, signal) => {
      this.log.write(`\n===== ${new Date().toISOString()} exited (${code ?? signal})\n`);
      if (this.stopping) return;
      this.say(`${this.name} exited (${code ?? signal}); starting it again (log: ${this.logFile})`);
      this.restartTimer = setTimeout(() => {
        this.start().catch((err: unknown) => this.say(`${this.name} did not start again: ${String(err)}`));
      }, RESTART_DELAY_MS);
    });
  }

  /** SIGTERM (api and worker drain on it), SIGKILL after `graceMs`. */
  async stop(graceMs = 30_000): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    await signalAndWait(this.child, 'SIGTERM', graceMs);
    this.log.end();
  }
}
