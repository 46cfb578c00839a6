import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { revokeApiKey } from '../../../src/services/workspace/api-keys';
import { request } from '../../support/http';
import { apiKeyFor, expectEnvelopeError } from '../../support/api-key';
import { sendRaw } from '../../support/raw-http';
import { startTestStack, type TestStack } from '../../support/stack';
import { seedWorkspace } from '../../support/workspace';

describe('the API-key surface with ALLOW_INSECURE_HTTP=never', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { ALLOW_INSECURE_HTTP: 'never', TRUSTED_PROXIES: '127.0.0.1', API_KEY_RATE_LIMIT_PER_KEY: '1' } });
  });
  afterAll(() => stack.stop());

  it('when a request comes over plain HTTP, then 403 https_required, even from loopback; health checks still answer', async () => {
    const ws = await seedWorkspace(stack.orm);
    const { key } = await apiKeyFor(stack.orm, ws.organizationId, ws.admin);
    const plain = await sendRaw('GET', `${stack.urls.apiKey}/v1/webhooks`, { headers: { Authorization: `Bearer ${key}` }, localAddress: '127.0.0.2' });
    expect(plain.status).toBe(403);
    expectEnvelopeError(plain.body, 'https_required');
    expect((await sendRaw('GET', `${stack.urls.apiKey}/healthz`)).status).toBe(200);
  });

  it('when a trusted proxy says X-Forwarded-Proto: https, then the request goes through; an untrusted peer saying it does not', async () => {
    const ws = await seedWorkspace(stack.orm);
    const { key } = await apiKeyFor(stack.orm, ws.organizationId, ws.admin);
    const headers = { Authorization: `Bearer ${key}`, 'X-Forwarded-Proto': 'https' };
    expect((await sendRaw('GET', `${stack.urls.apiKey}/v1/webhooks`, { headers })).status).toBe(200);
    expect((await sendRaw('GET', `${stack.urls.apiKey}/v1/webhooks`, { headers, localAddress: '127.0.0.2' })).status).toBe(403);
  });

  it('when one key goes past its rate, then 429 with Retry-After and X-RateLimit-* headers; another key is not held back', async () => {
    const ws = await seedWorkspace(stack.orm);
    const busy = await apiKeyFor(stack.orm, ws.organizationId, ws.admin);
    const calm = await apiKeyFor(stack.orm, ws.organizationId, ws.admin);
    const get = (key: string) =>
      sendRaw('GET', `${stack.urls.apiKey}/v1/webhooks`, { headers: { Authorization: `Bearer ${key}`, 'X-Forwarded-Proto': 'https' } });
    const first = await get(busy.key);
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('10');
    expect(first.headers['x-ratelimit-remaining']).toBe('9');
    expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    let last = first;
    for (let i = 0; i < 10 && last.status !== 429; i++) last = await get(busy.key);
    expect(last.status).toBe(429);
    expectEnvelopeError(last.body, 'rate_limited');
    expect(Number(last.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    expect((await get(calm.key)).status).toBe(200);
  });
});

describe('the API-key surface serving HTTPS itself', () => {
  let stack: TestStack;
  let dir: string;
  let ca: Buffer;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-tls-'));
    const [cert, key] = [path.join(dir, 'cert.pem'), path.join(dir, 'key.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    ca = readFileSync(cert);
    stack = await startTestStack({ env: { ALLOW_INSECURE_HTTP: 'never', TLS_CERT_FILE: cert, TLS_KEY_FILE: key } });
  });
  afterAll(async () => {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when a client connects over TLS, then requests are served without any proxy header', async () => {
    expect(stack.urls.apiKey).toMatch(/^https:/);
    const ws = await seedWorkspace(stack.orm);
    const { key } = await apiKeyFor(stack.orm, ws.organizationId, ws.admin);
    const res = await sendRaw('GET', `${stack.urls.apiKey}/v1/webhooks`, { headers: { Authorization: `Bearer ${key}` }, ca });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: [], meta: { total: 0 } });
  });
});

describe('API keys on the API-key surface', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.stop());

  it('when the key is missing, malformed, unknown, revoked mid-run or a customer API token, then 401; a key never works on /api/v1', async () => {
    const ws = await seedWorkspace(stack.orm);
    const { key, id } = await apiKeyFor(stack.orm, ws.organizationId, ws.admin);
    const get = (token?: string) => request('GET', `${stack.urls.apiKey}/v1/webhooks`, { token });
    expect((await get(key)).status).toBe(200);
    for (const token of [undefined, 'nonsense', `klxk_${'A'.repeat(43)}`, ws.tokens.readWrite]) {
      const res = await get(token);
      expect(res.status).toBe(401);
      expectEnvelopeError(res.body, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await request('GET', `${stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents`, { token: key })).status).toBe(401);
    await revokeApiKey(stack.orm, id);
    expect((await get(key)).status).toBe(401);
  });

  it('when a key is used, then last_used_at is kept; errors never echo the key', async () => {
    const ws = await seedWorkspace(stack.orm);
    const { key, id } = await apiKeyFor(stack.orm, ws.organizationId, ws.admin);
    await request('GET', `${stack.urls.apiKey}/v1/webhooks`, { token: key });
    const row = await stack.orm.em.fork().getConnection().execute('select last_used_at from api_keys where id = ?', [id]);
    expect(row[0].last_used_at).not.toBeNull();
    const bad = await request('GET', `${stack.urls.apiKey}/v1/webhooks/${'0'.repeat(8)}`, { token: key.slice(0, -1) + 'x' });
    expect(JSON.stringify(bad.body)).not.toContain(key.slice(5, 20));
    expect(stack.logs.lines.join('\n')).not.toContain(key);
  });

  it('when the OpenAPI document is fetched, then it is public and describes every route of the surface', async () => {
    const res = await request('GET', `${stack.urls.apiKey}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const paths = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(paths).toEqual(
      expect.arrayContaining([
        'GET /v1/webhooks',
        'POST /v1/webhooks',
        'GET /v1/webhooks/{id}',
        'PUT /v1/webhooks/{id}',
        'DELETE /v1/webhooks/{id}',
        'POST /v1/webhooks/{id}/rotate-secret',
        'POST /webhook/{webhook_id}',
      ]),
    );
    expect(res.body.components.schemas.CreateWebhook.required).toEqual(expect.arrayContaining(['name', 'channels']));
  });

  it('when a route does not exist or the method is wrong, then 404 / 405 in the API-key envelope', async () => {
    const ws = await seedWorkspace(stack.orm);
    const { key } = await apiKeyFor(stack.orm, ws.organizationId, ws.admin);
    const missing = await request('GET', `${stack.urls.apiKey}/v1/nothing-here`, { token: key });
    expect(missing.status).toBe(404);
    expectEnvelopeError(missing.body, 'not_found');
    const wrong = await request('PATCH', `${stack.urls.apiKey}/v1/webhooks`, { token: key });
    expect(wrong.status).toBe(405);
    expectEnvelopeError(wrong.body, 'method_not_allowed');
  });
});
