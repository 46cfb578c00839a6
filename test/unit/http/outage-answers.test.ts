import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { ServiceError } from '@temporalio/client';
import { customerErrors } from '../../../api/http/customer-errors';
import { transportPolicy } from '../../../api/api-key/transport';
import { createApiKeyListener } from '../../../api/api-key/app';
import { createLogger } from '../../../src/logger';
import { request } from '../../support/http';

const pgDown = () => Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2'), { code: 'ECONNREFUSED' });
const temporalDown = () =>
  new ServiceError('Failed to start Workflow', {
    cause: Object.assign(new Error('14 UNAVAILABLE: No connection established to 10.0.0.8:7233'), {
      code: 14,
      details: 'No connection established',
      metadata: {},
    }),
  });

/** Serves a Koa app on a free port for one call. */
async function call(app: Koa, path: string) {
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await request('GET', `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const throwing = (err: () => unknown) => {
  const app = new Koa();
  app.use(customerErrors());
  app.use(() => {
    throw err();
  });
  return app;
};

// /readyz touches none of the listener's other dependencies.
const readinessOnly = {
  orm: {} as never,
  sealer: {} as never,
  ingestion: {} as never,
  stats: {} as never,
  urls: { ingest: 'http://127.0.0.1:1', apiKey: 'http://127.0.0.1:2' },
  transport: transportPolicy([], 'loopback'),
  limits: { requestsPerSecondPerKey: 1, eventsPerSecondPerWebhook: 1 },
  incidents: {} as never,
};

describe('answers while a dependency is away', () => {
  it.each([
    ['Postgres', pgDown, /the database cannot be reached/],
    ['Temporal', temporalDown, /the workflow service \(Temporal\) cannot be reached/],
  ])(
    'when %s is away, then the customer and ingestion envelope is a 503 service_unavailable with Retry-After and no internals',
    async (_name, err, message) => {
      const res = await call(throwing(err), '/anything');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.body).toEqual({ message: expect.stringMatching(message), code: 'service_unavailable' });
      expect(JSON.stringify(res.body)).not.toMatch(/10\.0\.0|hunter2|ECONNREFUSED|UNAVAILABLE/);
    },
  );

  it('when something else fails, then a generic 500 without Retry-After', async () => {
    const res = await call(
      throwing(() => new Error('secret detail')),
      '/anything',
    );
    expect(res.status).toBe(500);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(res.body).toEqual({ message: 'internal error' });
  });

  it.each([
    ['Postgres', pgDown, 503],
    ['Temporal', temporalDown, 503],
    ['nothing (a bug)', () => new Error('secret detail'), 500],
  ])('when %s is away behind the API-key listener, then its own envelope says so', async (_name, err, status) => {
    const apiKey = createApiKeyListener({
      logger: createLogger('silent'),
      servingHealth: async () => {
        throw err();
      },
      ...readinessOnly,
    });
    const res = await call(apiKey, '/readyz');
    expect(res.status).toBe(status);
    expect(res.headers.get('retry-after')).toBe(status === 503 ? '5' : null);
    expect(res.body).toEqual({
      success: false,
      error: expect.any(String),
      code: status === 503 ? 'service_unavailable' : 'internal_error',
      timestamp: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/10\.0\.0|hunter2|secret detail/);
  });
});
