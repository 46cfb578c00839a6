/**
 * The suite's child processes: spawned with an environment of their own, their output appended
 * to one log file per process (restarts included), killed with SIGKILL or stopped with SIGTERM,
 * and started again with the same command. Whatever is still running when the suite exits, on
 * any path (failure, Ctrl-C), is killed by the hooks at the bottom.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { signalAndWait } from '../../src/stack/process-signals';

/** What to undo on the way out, newest first; `started`/`done` track its orderly path. */
const cleanups: Array<{ sync: () => void; async: () => Promise<void>; started?: boolean; done?: boolean }> = [];
let cleaning: Promise<void> | undefined;

/** Registers what to do on the way out: `sync` runs even from process.on('exit'), `async` on an orderly exit or a signal. */
export function onExit(sync: () => void, async: () => Promise<void> = async () => sync()): void {
  cleanups.unshift({ sync, async });
}

/**
 * Runs every cleanup, in order (processes before the servers they use). A second caller (a
 * signal during the run's own teardown, or the run failing because a signal stopped its
 * processes) waits for the same teardown instead of exiting halfway through it.
 */
export function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (let c = cleanups.find((x) => !x.started); c; c = cleanups.find((x) => !x.started)) {
      c.started = true;
      await c.async().catch(() => c!.sync());
      c.done = true;
    }
  })();
  return cleaning;
}

let hooked = false;
let interruptedBy: string | undefined;

/** The signal that stopped the run, if one did: the failures that follow are its doing. */
export const interruption = (): string | undefined => interruptedBy;

/** Kills what is left when the suite exits, however it exits. */
export function installExitHooks(say: (line: string) => void): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const c of cleanups.filter((x) => !x.done)) {
      try {
        c.sync();
      } catch {
        // best effort: the process is going away
      }
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      interruptedBy = signal;
      say(`${signal}: stopping everything`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
}

/** How to run one process, and how to tell it is ready. */
export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  logFile: string;
  /** A line of its output that says it is ready. */
  readyLine: RegExp;
  readyTimeoutMs: number;
}

/** One restartable child process. */
export class Child {
  private child?: ChildProcess;
  private readonly log: WriteStream;
  private starts = 0;

  constructor(readonly spec: ChildSpec) {
    this.log = createWriteStream(spec.logFile, { flags: 'a' });
    onExit(
      () => this.child?.kill('SIGKILL'),
      async () => {
        // Drained gracefully, but not for long: the verdict is already in.
        await this.stop(5000);
        this.log.end();
      },
    );
  }

  get name(): string {
    return this.spec.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Spawns it and resolves once its ready line appears; rejects if it exits first or takes too long. */
  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    this.starts++;
    this.log.write(`\n===== ${new Date().toISOString()} start #${this.starts}: ${this.spec.command} ${this.spec.args.join(' ')}\n`);
    const child = spawn(this.spec.command, this.spec.args, { cwd: this.spec.cwd, env: this.spec.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stderr!.pipe(this.log, { end: false });
    let seen = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => fail(new Error(`${this.name} was not ready after ${this.spec.readyTimeoutMs / 1000} s (log: ${this.spec.logFile})`)),
        this.spec.readyTimeoutMs,
      );
      const onData = (chunk: Buffer) => {
        this.log.write(chunk);
        seen = (seen + chunk.toString()).slice(-2000);
        if (this.spec.readyLine.test(seen)) done();
      };
      const onExitEarly = (code: number | null, signal: string | null) =>
        fail(new Error(`${this.name} exited before it was ready (${code ?? signal}); log: ${this.spec.logFile}`));
      const done = () => {
        clearTimeout(timer);
        child.off('exit', onExitEarly);
        child.stdout!.off('data', onData);
        child.stdout!.pipe(this.log, { end: false });
        resolve();
      };
      const fail = (err: Error) => {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.kill('SIGKILL');
        reject(err);
      };
      child.stdout!.on('data', onData);
      child.once('exit', onExitEarly);
    });
    child.once('exit', (code, signal) => this.log.write(`\n===== ${new Date().toISOString()} exited (${code ?? signal})\n`));
  }

  /** kill -9, and wait until it is gone. */
  async kill9(): Promise<void> {
    await this.signalAndWait('SIGKILL', 0);
  }

  /** SIGTERM, SIGKILL after `graceMs`; resolves once it is gone. */
  async stop(graceMs = 10_000): Promise<void> {
    await this.signalAndWait('SIGTERM', graceMs);
  }

  private signalAndWait(signal: NodeJS.Signals, graceMs: number): Promise<void> {
    return signalAndWait(this.child, signal, graceMs);
  }
}
