import type { Knex } from '@mikro-orm/postgresql';
import { CHANNELS, type ChannelId } from '../../domain/channels';
import { drillQuotaRefusal } from '../../domain/drills';
import type { Plan } from '../../domain/plans';
import { monthStart } from '../../domain/paging/quota';
import { lockMonthlyQuota, monthlyPagesUsed } from '../paging/quota-usage';
import type { DrillSendRow } from './drills';

/**
 * Claims a drill SMS or call against the person's monthly quota, as a real page's route is
 * chosen (docs/drills.md, "What counts"): under the same lock per person, channel and month, the
 * month's pages and drill sends are counted; under the limit the result is marked counted and may
 * go, over it the result fails saying why (a real page would go by email). Other channels pass.
 * Returns whether it may be sent.
 */
export async function claimDrillQuota(k: Knex, row: Pick<DrillSendRow, 'id' | 'organization_id' | 'user_id' | 'channel'>, at = new Date()): Promise<boolean> {
  const channel = row.channel as ChannelId;
  if (CHANNELS[channel].quota === null) return true;
  return k.transaction(async (trx) => {
    const month = monthStart(at);
    await lockMonthlyQuota(trx, row.user_id, channel, month);
    const current = await trx('drill_results').select('status', 'counted_at').where({ id: row.id }).first();
    if (!current || current.status !== 'pending') return false;
    if (current.counted_at) return true; // an earlier attempt claimed it
    const org = await trx('organizations').select('plan').where({ id: row.organization_id }).first();
    const used = await monthlyPagesUsed(trx, { userId: row.user_id, channel, since: month, exceptDrillResultId: row.id });
    const refused = drillQuotaRefusal(org.plan as Plan, channel, used);
    if (refused) {
      await trx('drill_results').where({ id: row.id, status: 'pending' }).update({ status: 'failed', error: refused });
      return false;
    }
    await trx('drill_results').where({ id: row.id }).update({ counted_at: at });
    return true;
  });
}
