import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/**
 * `BENCH_CPU_PROFILE=<file>`: a V8 CPU profile of this process's main thread (API, relay,
 * activities, the worker's Node side) over one stretch, for Chrome DevTools or a summary script.
 * Workflow code runs in worker threads and is not in it: threadCpuMs splits the process's time.
 */
export async function profiled<T>(file: string | undefined, run: () => Promise<T>): Promise<T> {
  if (!file) return run();
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  }
}

/** This process's CPU ms by thread: the main thread, and the rest by thread name. */
export function threadCpuMs(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = Number(tid) === process.pid ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out[name] = (out[name] ?? 0) + (Number(f[11]) + Number(f[12])) * 10;
    } catch {
      // exited
    }
  }
  return out;
}

/** The difference of two threadCpuMs readings, per unit. */
export function threadCpuPer(from: Record<string, number>, to: Record<string, number>, units: number): Record<string, number> {
  return Object.fromEntries(Object.entries(to).map(([k, v]) => [k, Math.round(((v - (from[k] ?? 0)) / units) * 100) / 100]));
}
