import type autocannon from 'autocannon';
import type { IncidentStatus } from '../../src/domain/incident-lifecycle';
import { IncidentPool, type Idle, type Loan } from './pool';

/**
 * Lifecycle requests as the load generator process builds them: each request borrows an incident
 * from the pool in setupRequest and returns it in onResponse, so no two in-flight requests touch
 * one incident and every request is a real state change. After a failed request the incident's
 * status is read back through GET `<basePath>/<id>`.
 */
export class LifecycleRequests {
  wrongStatus = 0;
  readonly samples: string[] = [];
  private readonly pool: IncidentPool;

  constructor(
    origin: string,
    private readonly basePath: string,
    headers: Record<string, string> | undefined,
    incidents: Idle[],
  ) {
    this.pool = new IncidentPool(async (id) => {
      const res = await fetch(`${origin}${basePath}/${id}`, { headers });
      return res.status === 200 ? ((await res.json()) as { data: { status: IncidentStatus } }).data.status : undefined;
    });
    for (const i of incidents) this.pool.give(i.id, i.status);
  }

  /** Forgets what the warm-up saw: only the measured run is counted. */
  reset(): void {
    this.wrongStatus = 0;
    this.samples.length = 0;
  }

  request(): autocannon.Request {
    return {
      method: 'POST',
      setupRequest: (req, context) => {
        const loan = this.pool.take();
        (context as { loan?: Loan }).loan = loan;
        return { ...req, path: `${this.basePath}/${loan.id}/${loan.operation}` };
      },
      onResponse: (status, body, context) => {
        const loan = (context as { loan?: Loan }).loan!;
        if (status === 200) {
          const answered = (JSON.parse(body) as { data: { status: IncidentStatus } }).data.status;
          if (answered !== loan.expect) this.wrongStatus++;
          this.pool.give(loan.id, answered);
        } else {
          if (this.samples.length < 3) this.samples.push(`${status} on ${loan.operation}: ${body.slice(0, 200)}`);
          void this.pool.resync(loan.id);
        }
      },
    };
  }

  /**
   * The counts and the idle incidents, once the status reads of failed requests are in. Those
   * whose request was cut off when the run stopped are left out: the server may still apply it
   * after any read-back, so their status is unknown.
   */
  async finish(): Promise<{ wrongStatus: number; idle: Idle[] }> {
    return { wrongStatus: this.wrongStatus, idle: await this.pool.takeAll() };
  }
}
