/**
 * The load generator process: receives one LoadSpec from bench/harness/load.ts over IPC, sends the load,
 * answers with a LoadRun and exits. Its own process so that building bodies, parsing answers and
 * timing them do not run on the event loop of the API it measures.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { signBody } from '../../src/domain/inbound-webhook-signature';
import { LifecycleRequests } from './lifecycle-requests';
import type { ChildMessage, LoadRun, LoadShapeSpec, LoadSpec, RequestSpec } from './load';

const tell = (msg: ChildMessage, then: () => void = () => {}) => process.send!(msg, then);

/** A body and, for alert events, its title (how the bench finds the event again in Postgres); headers a body needs (a signature). */
type MakeBody = () => { body?: string; title?: string; headers?: Record<string, string> };

function bodyMaker(spec: Exclude<RequestSpec, { kind: 'lifecycle' }>): MakeBody {
  switch (spec.kind) {
    case 'none':
      return () => ({});
    case 'fixed':
      return () => ({ body: spec.body });
    case 'alert': {
      let n = 0;
      return () => {
        const i = ++n;
        const title = `${spec.prefix} ${i}`;
        const dedup = spec.dedupKeys ? { dedup_key: `${spec.prefix}-k${i % spec.dedupKeys}` } : {};
        return { title, body: JSON.stringify({ title, severity: 'warning', ...dedup }) };
      };
    }
    case 'form-b': {
      let n = 0;
      return () => {
        const i = ++n;
        const title = `${spec.prefix} ${i}`;
        const dedup = spec.dedupKeys ? { dedup_key: `${spec.prefix}-k${i % spec.dedupKeys}` } : {};
        const body = JSON.stringify({ title, severity: 'warning', source: 'bench', tags: { n: String(i) }, ...dedup });
        // Signed here, per request, as a sender would: the cost of signing is the sender's.
        return { title, body, headers: spec.signingSecret ? { 'x-service-signature': signBody(spec.signingSecret, body) } : undefined };
      };
    }
    case 'pagerduty': {
      let n = 0;
      return () => {
        const i = ++n;
        const title = `${spec.prefix} ${i}`;
        const dedup = spec.dedupKeys ? { dedup_key: `${spec.prefix}-k${i % spec.dedupKeys}` } : {};
        const payload = { summary: title, source: 'bench', severity: 'warning', custom_details: { n: i } };
        return { title, body: JSON.stringify({ routing_key: spec.routingKey, event_action: 'trigger', payload, ...dedup }) };
      };
    }
    case 'opsgenie': {
      let n = 0;
      return () => {
        const i = ++n;
        const title = `${spec.prefix} ${i}`;
        const alias = spec.dedupKeys ? { alias: `${spec.prefix}-k${i % spec.dedupKeys}` } : {};
        return { title, body: JSON.stringify({ message: title, priority: 'P3', source: 'bench', details: { n: String(i) }, ...alias }) };
      };
    }
  }
}

/** What autocannon sends for a spec, and what the run adds to the result. */
interface Plan {
  options: Partial<autocannon.Options>;
  /** Called between warm-up and measured run. */
  reset(): void;
  finish(): Promise<Pick<LoadRun, 'samples' | 'lifecycle'>>;
}

function planOf(spec: LoadSpec): Plan {
  const request = spec.request;
  if (request.kind === 'lifecycle') {
    const lifecycle = new LifecycleRequests(new URL(spec.url).origin, request.basePath, spec.headers, request.incidents);
    return {
      options: { requests: [lifecycle.request()] },
      reset: () => lifecycle.reset(),
      finish: async () => ({ samples: lifecycle.samples, lifecycle: await lifecycle.finish() }),
    };
  }
  const make = bodyMaker(request);
  return {
    options:
      request.kind === 'none'
        ? {}
        : {
            requests: [
              {
                setupRequest: (req) => {
                  const made = make();
                  return { ...req, body: made.body, ...(made.headers ? { headers: { ...req.headers, ...made.headers } } : {}) };
                },
              },
            ],
          },
    reset: () => {},
    finish: async () => ({ samples: [] }),
  };
}

/** Tallies answers as they come; latencies of 2xx only, at autocannon's float-ms resolution. */
class Tally {
  readonly latencies: number[] = [];
  readonly statuses: Record<string, number> = {};
  readonly failures: Record<string, number> = {};
  readonly answered: Array<[string, number]> = [];
  first2xxAt = NaN;
  last2xxAt = NaN;

  add(status: number, latencyMs: number, title?: string): void {
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (status < 200 || status >= 300) {
      this.failures[status] = (this.failures[status] ?? 0) + 1;
      return;
    }
    const at = Date.now();
    if (Number.isNaN(this.first2xxAt)) this.first2xxAt = at;
    this.last2xxAt = at;
    this.latencies.push(latencyMs);
    if (title !== undefined) this.answered.push([title, at]);
  }
}

function cannon(spec: LoadSpec, plan: Plan, limit: { amount: number } | { duration: number }, connections: number, tally?: Tally): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url: spec.url, method: spec.method, connections, headers: spec.headers, ...limit, ...plan.options }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
    if (tally) instance.on('response', (_client, status, _bytes, responseTime) => tally.add(status, responseTime));
  });
}

async function closed(spec: LoadSpec, shape: Extract<LoadShapeSpec, { kind: 'closed' }>): Promise<LoadRun> {
  const plan = planOf(spec);
  if (shape.warmup) await cannon(spec, plan, { amount: shape.warmup }, Math.min(shape.concurrency, shape.warmup));
  plan.reset();
  const tally = new Tally();
  tell({ started: true });
  const cpu = process.cpuUsage();
  const result = await cannon(spec, plan, { duration: shape.durationS }, shape.concurrency, tally);
  const used = process.cpuUsage(cpu);
  return {
    ...tally,
    ...(await plan.finish()),
    transportErrors: result.errors,
    durationS: result.duration,
    concurrency: result.connections,
    cpuMs: (used.user + used.system) / 1000,
  };
}

/** Open loop: request i leaves at start + i/rate whatever happened to the earlier ones. */
async function paced(spec: LoadSpec, shape: Extract<LoadShapeSpec, { kind: 'paced' }>): Promise<LoadRun> {
  if (spec.request.kind === 'lifecycle') throw new Error('lifecycle requests run closed loop only');
  const make = bodyMaker(spec.request);
  const agent = new http.Agent({ keepAlive: true, maxSockets: shape.maxInFlight });
  const timeout = shape.timeoutMs ?? 10_000;
  const tally = new Tally();
  const samples: string[] = [];
  let transportErrors = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const { body, title } = make();
      const t0 = performance.now();
      const req = http.request(
        spec.url,
        { method: spec.method, agent, timeout, headers: { ...spec.headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            tally.add(res.statusCode ?? 0, performance.now() - t0, title);
            resolve();
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timed out after ${timeout / 1000} s`)));
      req.on('error', (err) => {
        transportErrors++;
        if (samples.length < 3) samples.push(err.message);
        resolve();
      });
      req.end(body);
    });
  const total = Math.round(shape.rate * shape.durationS);
  tell({ started: true });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const sent: Array<Promise<void>> = [];
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / shape.rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sent.push(one());
  }
  await Promise.all(sent);
  const used = process.cpuUsage(cpu);
  agent.destroy();
  return {
    ...tally,
    samples,
    transportErrors,
    durationS: (performance.now() - started) / 1000,
    concurrency: shape.maxInFlight,
    cpuMs: (used.user + used.system) / 1000,
  };
}

process.once('message', (spec: LoadSpec) => {
  const run = spec.shape.kind === 'closed' ? closed(spec, spec.shape) : paced(spec, spec.shape);
  run.then(
    (result) => tell({ run: result }, () => process.exit(0)),
    (err: unknown) => tell({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) }, () => process.exit(1)),
  );
});
// The bench went away (crash, Ctrl-C): nobody is left to read the result.
process.once('disconnect', () => process.exit(1));
