import { request } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';

describe('liveness and serving health (/healthz, /readyz)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
  });
  afterAll(() => stack.stop());

  it('when the process is up, then /healthz answers 200 on every listener', async () => {
    for (const base of Object.values(stack.urls)) {
      const res = await request('GET', `${base}/healthz`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    }
  });

  it('when no worker polls the task queue, then /readyz is 503 naming the worker; with one, 200', async () => {
    const down = await request('GET', `${stack.urls.app}/readyz`);
    expect(down.status).toBe(503);
    expect(down.body.message).toBe('not reachable: worker');
    expect(down.body.checks).toEqual({ postgres: true, temporal: true, worker: false });
    expect(down.headers.get('retry-after')).toBe('5');

    await stack.worker.start();
    let up = await request('GET', `${stack.urls.app}/readyz`);
    for (let i = 0; i < 50 && up.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100)); // the poller shows up once it has polled
      up = await request('GET', `${stack.urls.app}/readyz`);
    }
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ status: 'ready', checks: { postgres: true, temporal: true, worker: true } });
  });
});

describe('serving health when Postgres is unreachable', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
  });
  afterAll(() => stack.stop().catch(() => {}));

  it('when the database connection is gone, then /readyz is 503 naming postgres', async () => {
    await stack.orm.close(true);
    const res = await request('GET', `${stack.urls.app}/readyz`);
    expect(res.status).toBe(503);
    expect(res.body.checks.postgres).toBe(false);
    expect(res.body.message).toMatch(/postgres/);
  });
});
