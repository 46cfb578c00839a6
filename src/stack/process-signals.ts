import type { ChildProcess } from 'node:child_process';

/** Resolves on the first SIGINT, SIGTERM or SIGHUP: a role runs until one of them. */
export function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    process.once('SIGHUP', done);
  });
}

/** Sends `signal`, then SIGKILL if the child is still there after `graceMs` (0: no second signal); resolves once it is gone. */
export async function signalAndWait(child: ChildProcess | undefined, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = graceMs > 0 ? setTimeout(() => child.kill('SIGKILL'), graceMs) : undefined;
  await gone;
  clearTimeout(timer);
}
