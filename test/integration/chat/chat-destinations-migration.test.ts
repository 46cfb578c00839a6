import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { openOrm } from '../../../src/db/orm';
import { getServiceChat, listDestinations } from '../../../src/services/chat/service-chat';
import { createSealer } from '../../../src/services/sealing/seal';
import { TEST_SECRET } from '../../support/stack';

const MIGRATION = 'Migration20261217110000_chat_destinations';
const TEAMS_URL = 'https://prod-01.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=s3cr3t';

describe('the chat destinations migration', () => {
  it('when rows written by the old per-service settings exist, then each becomes its provider’s destination (the Teams URL still opens), the old table is gone and the chat consumer takes the Teams feed position', async () => {
    const orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 1);
    const sealer = createSealer(TEST_SECRET);
    try {
      const migrator = orm.getMigrator();
      await migrator.down({ to: MIGRATION });
      const k = knexOf(orm);
      const org = randomUUID();
      const [both, slackOnly, teamsOnly, neither] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      const setAt = new Date('2026-12-01T10:00:00Z');
      // What the old writer (service_chat_settings) stored: a channel id and name, the URL sealed.
      await k('service_chat_settings').insert([
        {
          service_id: both,
          organization_id: org,
          slack_channel_id: 'C0ALERTS01',
          slack_channel_name: 'alerts',
          teams_webhook_url_sealed: sealer.seal(TEAMS_URL),
          updated_at: setAt,
        },
        {
          service_id: slackOnly,
          organization_id: org,
          slack_channel_id: 'C0OPS00002',
          slack_channel_name: 'ops',
          teams_webhook_url_sealed: null,
          updated_at: setAt,
        },
        {
          service_id: teamsOnly,
          organization_id: org,
          slack_channel_id: null,
          slack_channel_name: null,
          teams_webhook_url_sealed: sealer.seal(TEAMS_URL),
          updated_at: setAt,
        },
        { service_id: neither, organization_id: org, slack_channel_id: null, slack_channel_name: null, teams_webhook_url_sealed: null, updated_at: setAt },
      ]);
      // The Teams consumer's feed position (h-queue's migration named it microsoft-teams).
      await k('incident_event_consumers').where({ name: 'chat' }).delete();
      await k.raw(`insert into incident_event_consumers (name, position_xid, position_seq) values ('microsoft-teams', '777'::xid8, 4242)
        on conflict (name) do update set position_xid = excluded.position_xid, position_seq = excluded.position_seq`);
      await migrator.up();
      expect(await migrator.getPendingMigrations()).toEqual([]);

      expect(await getServiceChat(orm, sealer, both)).toEqual({ slackChannelId: 'C0ALERTS01', slackChannelName: 'alerts', teamsWebhookUrl: TEAMS_URL });
      expect(await getServiceChat(orm, sealer, slackOnly)).toEqual({ slackChannelId: 'C0OPS00002', slackChannelName: 'ops', teamsWebhookUrl: null });
      expect(await getServiceChat(orm, sealer, teamsOnly)).toEqual({ slackChannelId: null, slackChannelName: null, teamsWebhookUrl: TEAMS_URL });
      expect(await listDestinations(orm, sealer, neither)).toEqual([]);
      const moved = await listDestinations(orm, sealer, both);
      expect(moved.map((d) => d.provider)).toEqual(['microsoft-teams', 'slack']);
      // Kept: Slack posts only events newer than when its channel was set.
      expect(moved.map((d) => d.updatedAt.toISOString())).toEqual([setAt.toISOString(), setAt.toISOString()]);
      expect(await k('service_chat_destinations').where({ organization_id: org }).count({ n: '*' })).toEqual([{ n: '4' }]);
      expect((await k.raw(`select to_regclass('service_chat_settings') as t`)).rows[0].t).toBeNull();
      // The one chat consumer carries on from where Teams' stopped: nothing posted twice or missed.
      const positions = await k('incident_event_consumers')
        .whereIn('name', ['chat', 'microsoft-teams'])
        .select('name', k.raw('position_xid::text as xid'), 'position_seq');
      expect(positions).toEqual([{ name: 'chat', xid: '777', position_seq: '4242' }]);
    } finally {
      await orm.close();
    }
  });
});
