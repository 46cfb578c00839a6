import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { signalAndWait } from '../stack/process-signals';
import { temporalServerConfig, type ServerConfigInput } from './server-config';

/** The config's name: the server reads `<root>/config/<env>.yaml`. */
const ENV_NAME = 'klaxon';

/**
 * One Temporal server process (frontend, history, matching and worker services) on its config,
 * started with `server --root DIR --env NAME --allow-no-auth start` and restartable on the same
 * ports and database: what "the Temporal server went down" means in production. Its output is
 * appended to one log file across restarts.
 */
export class TemporalServerProcess {
  private child?: ChildProcess;
  private readonly log: WriteStream;
  private starts = 0;

  constructor(
    private readonly binary: string,
    /** Its root folder: the config goes in `config/`, the log beside it. */
    readonly root: string,
    private readonly config: ServerConfigInput,
  ) {
    mkdirSync(path.join(root, 'config'), { recursive: true });
    // The config holds the database password: readable by this user only.
    writeFileSync(path.join(root, 'config', `${ENV_NAME}.yaml`), JSON.stringify(temporalServerConfig(config), null, 2) + '\n', { mode: 0o600 });
    this.log = createWriteStream(this.logFile, { flags: 'a' });
  }

  get address(): string {
    return `127.0.0.1:${this.config.ports.frontend}`;
  }

  get logFile(): string {
    return path.join(this.root, 'server.log');
  }

  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Spawns the server; `exited` rejects if it stops before `stop()`/`kill9()` is asked. */
  start(): { exited: Promise<never> } {
    if (this.running) throw new Error('the Temporal server is already running');
    this.starts++;
    this.log.write(`\n===== ${new Date().toISOString()} start #${this.starts}\n`);
    const child = spawn(this.binary, ['--root', this.root, '--config', 'config', '--env', ENV_NAME, '--allow-no-auth', 'start'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.pipe(this.log, { end: false });
    child.stderr!.pipe(this.log, { end: false });
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) => {
        this.log.write(`\n===== ${new Date().toISOString()} exited (${code ?? signal})\n`);
        reject(new Error(`the Temporal server exited (${code ?? signal}); its log: ${this.logFile}`));
      }),
    );
    // Nobody may be listening when it is stopped on purpose.
    exited.catch(() => {});
    return { exited };
  }

  /** SIGTERM (the server drains its shards), SIGKILL after `graceMs`. */
  stop(graceMs = 10_000): Promise<void> {
    return this.signalAndWait('SIGTERM', graceMs);
  }

  kill9(): Promise<void> {
    return this.signalAndWait('SIGKILL', 0);
  }

  /** Closes the log once the process is gone for good. */
  close(): void {
    this.log.end();
  }

  private signalAndWait(signal: NodeJS.Signals, graceMs: number): Promise<void> {
    return signalAndWait(this.child, signal, graceMs);
  }
}
