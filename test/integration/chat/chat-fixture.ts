import { knexOf } from '../../../src/db/knex';
import { sha256Hex } from '../../../src/services/accounts/secrets';
import { SESSION_COOKIE, dashboard, type DashboardSession } from '../../support/dashboard';
import { SlackApiFake } from '../../../src/integrations/slack/testing/wire-fake';
import { startTestStack, type TestStack } from '../../support/stack';

/** A test file's stack pointed at a Slack Web API fake (SLACK_* set), both started before its tests. */
export function slackFixture(opts: { env?: Record<string, string> } = {}) {
  const held: { stack?: TestStack; fake?: SlackApiFake } = {};
  beforeAll(async () => {
    held.fake = await new SlackApiFake().start();
    held.stack = await startTestStack({ worker: false, env: { ...held.fake.env(), ...opts.env } });
  });
  afterAll(async () => {
    await held.stack?.stop();
    await held.fake?.stop();
  });
  return {
    get stack(): TestStack {
      return held.stack!;
    },
    get fake(): SlackApiFake {
      return held.fake!;
    },
    api: (method: string, path: string, o: Parameters<typeof dashboard>[3] = {}) => dashboard(held.stack!.urls.app, method, path, o),
  };
}

/** A GET that does not follow redirects, with the session cookie if given: status and Location. */
export async function getManual(url: string, session?: Pick<DashboardSession, 'cookie'>): Promise<{ status: number; location: string | null; body: string }> {
  const res = await fetch(url, { redirect: 'manual', headers: session ? { Cookie: `${SESSION_COOKIE}=${session.cookie}` } : {} });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

/** The session row id of a signed-in client (what the state binds). */
export async function sessionIdOf(stack: TestStack, session: Pick<DashboardSession, 'cookie'>): Promise<string> {
  return (
    await knexOf(stack.orm)('sessions')
      .select('id')
      .where({ token_hash: sha256Hex(session.cookie) })
      .first()
  ).id;
}

/**
 * The whole install as a browser makes it: "Connect Slack", the fake's authorize page (approves at
 * once), back to /hooks/slack/oauth with the session cookie. Answers where Klaxon sent the browser last.
 */
export async function connectSlack(stack: TestStack, session: Pick<DashboardSession, 'cookie'>): Promise<URL> {
  const install = await getManual(`${stack.urls.app}/api/integrations/slack/install`, session);
  if (install.status !== 302) throw new Error(`install: ${install.status} ${install.body}`);
  const authorize = await getManual(install.location!);
  if (authorize.status !== 302) throw new Error(`authorize: ${authorize.status} ${authorize.body}`);
  const back = await getManual(authorize.location!, session);
  return new URL(back.location!, stack.urls.app);
}
