import { randomUUID } from 'node:crypto';
import { knexOf } from '../../src/db/knex';
import { setServiceChat } from '../../src/services/chat/service-chat';
import { saveSlackInstallation } from '../../src/integrations/slack/installations';
import { createSealer } from '../../src/services/sealing/seal';
import { SlackApiFake, type FakeSlackMessage } from '../../src/integrations/slack/testing/wire-fake';
import { request } from './http';
import { pagingService, responder } from './paging';
import { startTestStack, TEST_SECRET, type TestStack } from './stack';
import { waitFor } from './wait';
import { seedWorkspace, type SeededWorkspace } from './workspace';

/**
 * A test stack talking to the Slack wire fake, for a file's tests (started before them, stopped
 * after): workspaces whose service posts in a channel of its own, and the incident's messages.
 */
export function slackStack() {
  const ctx = {} as { fake: SlackApiFake; stack: TestStack };
  beforeAll(async () => {
    ctx.fake = await new SlackApiFake().start();
    ctx.fake.tokens.add(ctx.fake.botToken);
    ctx.stack = await startTestStack({ env: ctx.fake.env() });
  });
  afterAll(async () => {
    await ctx.stack?.stop();
    await ctx.fake?.stop();
  });

  const sealer = createSealer(TEST_SECRET);
  const db = () => knexOf(ctx.stack.orm);

  /** A channel of its own for each test, so posts never mix. */
  function newChannel(): string {
    const id = `C${randomUUID().replace(/-/g, '').slice(0, 9).toUpperCase()}`;
    ctx.fake.channels.push({ id, name: `inc-${id.toLowerCase()}` });
    return id;
  }

  const install = (organizationId: string) =>
    saveSlackInstallation(ctx.stack.orm, sealer, {
      organizationId,
      slackTeamId: ctx.fake.teamId,
      slackTeamName: ctx.fake.teamName,
      botUserId: ctx.fake.botUserId,
      botToken: ctx.fake.botToken,
      scopes: 'chat:write',
      installedBy: null,
    });

  /** A workspace paging one responder by email (the dev inbox), Slack installed, its service posting in `channel`. */
  async function slackWorkspace(opts: { installed?: boolean; channel?: string | null } = {}) {
    const { stack } = ctx;
    const ws = await seedWorkspace(stack.orm);
    const paged = await responder(stack.orm, ws.organizationId, 'email');
    await db()('users').where({ id: paged.id }).update({ name: 'Dana Smith' });
    const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] }] }, stack.urls.ingest);
    if (opts.installed !== false) await install(ws.organizationId);
    const channel = opts.channel === undefined ? newChannel() : opts.channel;
    if (channel)
      await setServiceChat(
        stack.orm,
        sealer,
        { organizationId: ws.organizationId, serviceId: ws.serviceId },
        { slackChannel: { id: channel, name: 'alerts' } },
      );
    return { ws, paged, ingestUrl, channel: channel ?? '' };
  }

  const act = (ws: SeededWorkspace, incidentId: string, action: 'acknowledge' | 'resolve') =>
    request('POST', `${ctx.stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents/${incidentId}/${action}`, { token: ws.tokens.readWrite });

  /** The incident's top-level messages anywhere (its id is in the link and the buttons). */
  const postsOf = (incidentId: string): FakeSlackMessage[] =>
    ctx.fake.messages.filter((m) => !m.thread_ts && JSON.stringify(m.versions[0].blocks).includes(incidentId));
  const messageOf = (incidentId: string) => waitFor(async () => postsOf(incidentId)[0], 20_000, `the message of ${incidentId}`);

  return Object.assign(ctx, { sealer, db, newChannel, install, slackWorkspace, act, postsOf, messageOf });
}
