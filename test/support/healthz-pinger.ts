import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const RUN_TS = path.resolve(__dirname, '../../bin/run-ts.js');

/** What the pinger saw: the latency (ms) of each answered ping, and why any other failed. */
export interface Pings {
  latencies: number[];
  failures: string[];
}

/** Health checks fired from another process while a test loads the API: how long each waited. */
export class HealthPinger {
  private constructor(private readonly child: ChildProcess) {}

  /** Starts pinging `url` (a /healthz) until `stop`. */
  static start(url: string): HealthPinger {
    const child = fork(RUN_TS, [path.join(__dirname, 'healthz-pinger-child.ts')], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, HEALTH_URL: url },
    });
    return new HealthPinger(child);
  }

  /** The pings since the last call. */
  take(): Promise<Pings> {
    return new Promise((resolve) => {
      this.child.once('message', (msg: Pings) => resolve(msg));
      this.child.send({ type: 'take' });
    });
  }

  /** Stops the process once its ping in flight is answered. */
  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.send({ type: 'stop' });
    await exited;
  }
}
