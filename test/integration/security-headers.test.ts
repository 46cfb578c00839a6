import { sendRaw } from '../support/raw-http';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * Security headers on every answer of the app listener (docs/security.md, "Headers"): pages, JSON
 * routes, errors, the page-action links and health alike; HSTS only where APP_URL is https.
 */
describe('security headers on the app listener', () => {
  let plain: TestStack;
  let behindTls: TestStack;
  beforeAll(async () => {
    plain = await startTestStack({ worker: false });
    // Its public URL is https (a TLS proxy in front); the test still speaks to the listener itself.
    behindTls = await startTestStack({ worker: false, env: { APP_URL: 'https://klaxon.example.com' } });
  });
  afterAll(async () => {
    await plain?.stop();
    await behindTls?.stop();
  });

  const answers = (stack: TestStack) =>
    Promise.all(
      [
        ['GET', '/'],
        ['GET', '/incidents/some-page'],
        ['GET', '/api/auth/session'],
        ['POST', '/api/auth/login'],
        ['GET', '/api/v1/organizations/00000000-0000-4000-8000-000000000000/incidents'],
        ['GET', '/hooks/page/not-a-token'],
        ['GET', '/healthz'],
        ['GET', '/metrics'],
      ].map(async ([method, path]) => ({ path, res: await sendRaw(method, `${stack.urls.app}${path}`, method === 'POST' ? { body: '{}' } : {}) })),
    );

  it('when any route answers (a page, JSON, an error, a link page), then it carries CSP without inline scripts, no framing, nosniff and no referrer', async () => {
    for (const { path, res } of await answers(plain)) {
      const csp = String(res.headers['content-security-policy']);
      const scripts = /script-src ([^;]*)/.exec(csp)?.[1] ?? /default-src ([^;]*)/.exec(csp)?.[1];
      expect({ path, scripts }).toEqual({ path, scripts: "'self'" });
      expect({ path, frameAncestors: /frame-ancestors ([^;]*)/.exec(csp)?.[1] }).toEqual({ path, frameAncestors: "'none'" });
      expect({ path, nosniff: res.headers['x-content-type-options'], frame: res.headers['x-frame-options'], referrer: res.headers['referrer-policy'] }).toEqual(
        { path, nosniff: 'nosniff', frame: 'DENY', referrer: 'no-referrer' },
      );
      // Plain http://localhost: HSTS would pin a developer's browser to https for a year.
      expect({ path, hsts: res.headers['strict-transport-security'] }).toEqual({ path, hsts: undefined });
    }
  });

  it('when APP_URL is https, then every answer also carries HSTS and asks to upgrade insecure requests', async () => {
    for (const { path, res } of await answers(behindTls)) {
      expect({ path, hsts: res.headers['strict-transport-security'] }).toEqual({ path, hsts: expect.stringMatching(/^max-age=31536000/) });
      expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    }
  });
});
