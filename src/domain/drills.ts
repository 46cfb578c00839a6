/**
 * Paging drills, the pure part (docs/drills.md): who gets what (people × channels), what the
 * test page says, how a result's status and latency follow from the send, whether an
 * acknowledgement still counts, and the cron of a weekly drill. Import-free at run time but for
 * other pure modules, so the drill workflow may use it too.
 */
import { CHANNELS, DRILLABLE_CHANNEL_IDS, type ChannelId } from './channels';
import type { Plan } from './plans';
import { quotaFallbackReason } from './paging/quota';

export const DRILL_TARGET_TYPES = ['user', 'team', 'schedule'] as const;
export type DrillTargetType = (typeof DRILL_TARGET_TYPES)[number];

export interface DrillTarget {
  type: DrillTargetType;
  id: string;
}

/** Channels a drill sends: those whose integration declares a drill page (every paging channel but Slack DMs). */
export const DRILL_CHANNELS = DRILLABLE_CHANNEL_IDS as readonly [ChannelId, ...ChannelId[]];
export type DrillChannel = ChannelId;
const isDrillChannel = (c: ChannelId): boolean => DRILL_CHANNELS.includes(c);

/** `skipped`: a recurring drill found the person drilled on that channel within the hour, and sent nothing. */
export const DRILL_RESULT_STATUSES = ['pending', 'delivered', 'failed', 'skipped'] as const;
export type DrillResultStatus = (typeof DRILL_RESULT_STATUSES)[number];

/** How long a press of acknowledge counts, by default (design §19: "within 10 minutes"). */
export const DEFAULT_DRILL_ACK_WINDOW_SECONDS = 600;

/** One target at most once a minute; a workspace at most this many drills an hour (docs/drills.md). */
export const DRILL_TARGET_MIN_GAP_SECONDS = 60;
export const DRILL_WORKSPACE_MAX_PER_HOUR = 30;
/** People one drill pages at most (a team or a schedule larger than this is refused). */
export const DRILL_MAX_PEOPLE = 50;
/** A recurring drill skips a person on a channel any drill sent them on this recently (docs/drills.md). */
export const RECURRING_DRILL_SKIP_SECONDS = 3600;

/** A person as paging reads them: their rules' contact methods, and every usable contact method. */
export interface DrillPerson {
  userId: string;
  name: string;
  /** Contact methods their notification rules page, in firing order (may repeat one method). */
  ruled: ReadonlyArray<{ contactMethodId: string; channel: ChannelId; address: string }>;
  /** Their enabled, verified contact methods. */
  contacts: ReadonlyArray<{ id: string; type: ChannelId; address: string }>;
}

/** One row to write: a send to plan, or a failure known before sending anything. */
export interface PlannedDrillResult {
  userId: string;
  userName: string;
  channel: ChannelId | null;
  contactMethodId: string | null;
  address: string | null;
  status: 'pending' | 'failed' | 'skipped';
  error: string | null;
}

/**
 * The results of a drill: for each person, one per contact method their rules page (no
 * `channels`) or one per enabled, verified contact method on those channels. A person with nothing
 * to send gets one failed result saying why; a channel the plan does not include, or Slack, fails
 * with the reason instead of being sent.
 */
export function planDrill(people: readonly DrillPerson[], channels: readonly DrillChannel[] | undefined, plan: Plan): PlannedDrillResult[] {
  return people.flatMap((p): PlannedDrillResult[] => {
    const methods = channels
      ? p.contacts.filter((c) => (channels as readonly string[]).includes(c.type)).map((c) => ({ contactMethodId: c.id, channel: c.type, address: c.address }))
      : uniqueBy(p.ruled, (r) => r.contactMethodId);
    if (methods.length === 0) {
      const why = channels
        ? `no enabled, verified contact method on ${channels.map((c) => CHANNELS[c].label).join(', ')}`
        : 'no notification rule pages them on an enabled, verified contact method';
      return [{ userId: p.userId, userName: p.name, channel: null, contactMethodId: null, address: null, status: 'failed' as const, error: why }];
    }
    return methods.map((m) => {
      const refused = refusal(m.channel, plan);
      return {
        userId: p.userId,
        userName: p.name,
        channel: m.channel,
        contactMethodId: m.contactMethodId,
        address: m.address,
        status: refused ? ('failed' as const) : ('pending' as const),
        error: refused,
      };
    });
  });
}

/** Why a drill does not send on this channel, or null. */
function refusal(channel: ChannelId, plan: Plan): string | null {
  if (!isDrillChannel(channel)) return `drills do not send ${CHANNELS[channel].label} messages`;
  // A channel the plan never includes would page by email for real: the drill says so rather than sending it.
  return drillQuotaRefusal(plan, channel, 0);
}

/**
 * Why a drill does not send on this channel given the person's month so far (SMS and calls count
 * against the plan's quotas as real pages do), or null: where a real page would fall back to
 * email, the drill is not sent and says so.
 */
export function drillQuotaRefusal(plan: Plan, channel: ChannelId, usedThisMonth: number): string | null {
  const fallback = quotaFallbackReason(plan, channel, usedThisMonth);
  return fallback ? `not sent: ${fallback.replace('; sent by email instead', '; a real page would go by email')}` : null;
}

/** A send of an earlier drill: to whom, on which channel, when, by which drill. */
export interface RecentDrillSend {
  userId: string;
  channel: ChannelId;
  drillId: string;
  at: Date;
}

/**
 * A recurring drill's results with the sends it must not repeat marked `skipped`: a person already
 * drilled on a channel within RECURRING_DRILL_SKIP_SECONDS (by any drill) is not sent it again, so
 * several schedules reaching the same people cost one page an hour each, not one per schedule.
 */
export function skipRecentlyDrilled(planned: readonly PlannedDrillResult[], recent: readonly RecentDrillSend[]): PlannedDrillResult[] {
  const latest = new Map<string, RecentDrillSend>();
  for (const r of recent) {
    const key = `${r.userId}|${r.channel}`;
    if (!latest.has(key) || latest.get(key)!.at < r.at) latest.set(key, r);
  }
  return planned.map((p) => {
    const earlier = p.status === 'pending' && p.channel ? latest.get(`${p.userId}|${p.channel}`) : undefined;
    if (!earlier) return p;
    const error = `skipped: drilled on ${CHANNELS[earlier.channel].label} at ${earlier.at.toISOString()} (drill ${earlier.drillId}); a recurring drill sends a person at most one page an hour per channel`;
    return { ...p, status: 'skipped' as const, error };
  });
}

function uniqueBy<T>(items: readonly T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((i) => !seen.has(key(i)) && seen.add(key(i)));
}

export { DRILL_MARK } from './drill-mark';

/** Milliseconds from the drill's start to the provider's acceptance (never negative). */
export const drillLatencyMs = (drillStartedAt: Date, deliveredAt: Date): number => Math.max(0, deliveredAt.getTime() - drillStartedAt.getTime());

/** True while a press of acknowledge still counts for a drill started at `startedAt`. */
export const withinAckWindow = (startedAt: Date, windowSeconds: number, at: Date): boolean => at.getTime() - startedAt.getTime() <= windowSeconds * 1000;

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A weekly drill as cron: `monday` at `10:00` is `0 10 * * 1`. */
export function weeklyCron(weekday: Weekday, time: string): string {
  const [h, m] = time.split(':').map(Number);
  return `${m} ${h} * * ${WEEKDAYS.indexOf(weekday)}`;
}

/**
 * Five cron fields: the minute one number (a recurring drill fires at most hourly), the others
 * digits, `*`, `,`, `-` and `/` (Temporal checks the values themselves).
 */
export const CRON_PATTERN = /^\d{1,2}(?: [\d*,/-]{1,40}){4}$/;
