import type { MikroORM } from '@mikro-orm/postgresql';
import { openOrm } from '../../../src/db/orm';
import { importFrom } from '../../../src/integrations/import-sources';
import { ImportSourceError } from '../../../src/services/importers';
import { closedPort } from '../../../src/integrations/testing/http-util';
import { startOpsgenieApi, type OpsgenieApiFake } from '../../../src/integrations/opsgenie/testing/wire-fake';
import { startPagerDutyApi, type PagerDutyApiFake } from '../../../src/integrations/pagerduty/testing/wire-fake';
import { CLI_ACTOR, importDeps, importWorkspace, memberEmails, runImport, workspaceRows } from '../../support/importers';

// What the source answers when it will not: a refused credential, rate limits, server errors,
// silence, a malformed answer. Each ends in a clear error naming the source (never the
// credential) and nothing written, or in a success after bounded retries.

let orm: MikroORM;
let pd: PagerDutyApiFake;
let og: OpsgenieApiFake;
let organizationId: string;
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
  [pd, og] = await Promise.all([startPagerDutyApi(), startOpsgenieApi()]);
  ({ organizationId } = await importWorkspace(orm, { members: memberEmails(pd.account.domain!) }));
});
afterEach(() => {
  pd.faults.length = 0;
  pd.failing = undefined;
});
afterAll(async () => {
  await Promise.all([pd?.stop(), og?.stop()]);
  await orm?.close();
});

const pdSource = () => ({ url: pd.url, credential: pd.token });
const failure = async (work: Promise<unknown>): Promise<ImportSourceError> => {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ImportSourceError)) throw new Error(`expected an ImportSourceError, got ${String(err)}`);
  return err;
};

describe('an import whose source will not answer', () => {
  it.each([
    ['pagerduty', 'PagerDuty', () => ({ url: pd.url, credential: 'u+wrong-token-that-pagerduty-refuses' })],
    ['opsgenie', 'Opsgenie', () => ({ url: og.url, credential: '00000000-1111-2222-3333-444444444444' })],
  ] as const)('when %s refuses the credential, then the error says so without the credential, and nothing is written', async (system, label, source) => {
    const before = await workspaceRows(orm, organizationId);
    const err = await failure(runImport(orm, system, source(), { organizationId }));
    expect(err.code).toBe('source_token_refused');
    expect(err.message).toMatch(new RegExp(`^${label} refused the API credential \\(401\\)`));
    expect(err.message).not.toContain(source().credential);
    expect(await workspaceRows(orm, organizationId)).toEqual(before);
  });

  it('when PagerDuty answers 429 with Retry-After, then the request waits that long and the import completes', async () => {
    pd.faults.push({ status: 429, headers: { 'Retry-After': '1' }, body: { error: { message: 'Rate Limit Exceeded', code: 2020 } } });
    const started = pd.requests.length;
    const report = await runImport(orm, 'pagerduty', pdSource(), { organizationId });
    expect(report.created.team + report.updated.team + report.mapping.length).toBeGreaterThan(0);
    const [limited, retried] = pd.requests.slice(started);
    expect(limited.path).toBe('/users');
    expect(retried.path).toBe('/users');
    expect(retried.at - limited.at).toBeGreaterThanOrEqual(950);
  });

  it('when a 429 gives only PagerDuty’s ratelimit-reset, then that is the wait', async () => {
    pd.faults.push({
      status: 429,
      headers: { 'ratelimit-limit': '960', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' },
      body: { error: { message: 'Rate Limit Exceeded', code: 2020 } },
    });
    const started = pd.requests.length;
    await runImport(orm, 'pagerduty', pdSource(), { organizationId });
    const [limited, retried] = pd.requests.slice(started);
    expect(retried.at - limited.at).toBeGreaterThanOrEqual(950);
  });

  it('when the source answers 500 twice, then the request is retried with backoff and the import completes', async () => {
    pd.faults.push({ status: 500, body: { error: { message: 'Internal Server Error' } } }, { status: 502 });
    const started = pd.requests.length;
    await runImport(orm, 'pagerduty', pdSource(), { organizationId });
    expect(
      pd.requests
        .slice(started, started + 3)
        .map((r) => `${r.path}?offset=${r.query.offset}`)
        .join(' '),
    ).toBe('/users?offset=0 /users?offset=0 /users?offset=0');
  });

  it('when the source answers 500 every time, then it gives up after five attempts with a clear error and writes nothing', async () => {
    pd.failing = { status: 500, body: { error: { message: 'Internal Server Error' } } };
    const before = await workspaceRows(orm, organizationId);
    const started = pd.requests.length;
    const err = await failure(runImport(orm, 'pagerduty', pdSource(), { organizationId }));
    expect(err.code).toBe('source_unavailable');
    expect(err.message).toBe(`could not read PagerDuty at ${pd.url} (status 500, 5 attempts): try again later`);
    expect(pd.requests.length - started).toBe(5);
    expect(await workspaceRows(orm, organizationId)).toEqual(before);
  });

  it('when a 429 asks for a wait longer than a minute, then the import stops at once and says so', async () => {
    pd.faults.push({ status: 429, headers: { 'Retry-After': '3600' } });
    const err = await failure(runImport(orm, 'pagerduty', pdSource(), { organizationId }));
    expect(err).toMatchObject({ code: 'source_rate_limited', message: 'PagerDuty asked to wait 3600 s before the next request: try again later' });
  });

  it('when an answer is not what the API documents, then the import stops naming where', async () => {
    pd.faults.push({ status: 200, body: { users: 'not a list', more: false } });
    const err = await failure(runImport(orm, 'pagerduty', pdSource(), { organizationId }));
    expect(err.code).toBe('source_bad_answer');
    expect(err.message).toMatch(/^PagerDuty's answer to \/users is not what its API documents \(users: /);
  });

  it('when nothing listens at the API URL, then the error names the source and the address, after retries', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const err = await failure(runImport(orm, 'opsgenie', { url, credential: og.apiKey }, { organizationId, maxAttempts: 2 }));
    expect(err).toMatchObject({ code: 'source_unavailable', message: `could not read Opsgenie at ${url} (connection refused, 2 attempts): try again later` });
  });

  it('when private addresses are not allowed, then the SSRF guard refuses the API URL before any request', async () => {
    const started = pd.requests.length;
    const work = importFrom(
      importDeps(orm),
      { organizationId, system: 'pagerduty', dryRun: true, actor: CLI_ACTOR },
      { credential: pd.token, apiUrl: pd.url, allowPrivate: false },
    );
    const err = await failure(work);
    expect(err.code).toBe('source_url_refused');
    expect(err.message).toMatch(/^the PagerDuty API URL must be an https:\/\/ URL/);
    expect(pd.requests.length).toBe(started);
    const https = await failure(
      importFrom(
        importDeps(orm),
        { organizationId, system: 'pagerduty', dryRun: true, actor: CLI_ACTOR },
        { credential: pd.token, apiUrl: 'https://127.0.0.1:9/', allowPrivate: false },
      ),
    );
    expect(https.message).toMatch(/private address/);
  });
});
