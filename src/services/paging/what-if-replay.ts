/**
 * The what-if replay loop (docs/what-if.md, "Bounds"): each incident's first TRIGGERED spell
 * replayed through the pure replay (src/domain/paging/what-if.ts), beside its real pages, with
 * the per-person totals. Bounded: it stops before the incident that would take the replay past
 * WHAT_IF_LIMITS.maxPages simulated pages (or whose answer alone would not fit in one), and it
 * gives the event loop back every few milliseconds, so other requests are served meanwhile.
 */
import { performance } from 'node:perf_hooks';
import type { ChannelId } from '../../domain/channels';
import type { EscalationPlan } from '../../domain/paging/escalation-plan';
import { isNight, replayPages, type StepJobs } from '../../domain/paging/what-if';
import { WHAT_IF_ANSWER, type SizedIncident } from './what-if-answer';
import type { ActualRow, IncidentRow } from './what-if-reads';

/** The most simulated pages one replay takes; past them it stops and the answer says `truncated`. */
export const WHAT_IF_MAX_PAGES = 100_000;

/** How long the replay runs before letting other callbacks in: far below the 100 ms it must never block. */
const SLICE_MS = 5;
/** Pages taken between two looks at the clock. */
const PAGES_PER_LOOK = 64;

export interface PageJson {
  user_id: string | null;
  name: string | null;
  channel: ChannelId;
  at: string;
}

export interface IncidentJson {
  incident_id: string;
  number: number;
  title: string;
  opened_at: string;
  /** When the TRIGGERED spell ended (acknowledged, resolved or closed); null: still TRIGGERED. */
  ended_at: string | null;
  would_page: PageJson[];
  actually_paged: PageJson[];
  /** Whether the two differ in who, how or at which step. */
  differs: boolean;
}

export interface TotalJson {
  user_id: string;
  name: string;
  would_pages: number;
  night_pages: number;
  actual_pages: number;
}

export interface Replayed {
  /** Each incident's answer as JSON text (an IncidentJson), with its bytes. */
  incidents: SizedIncident[];
  totals: TotalJson[];
  /** True when it stopped before the last incident (WHAT_IF_MAX_PAGES, or one incident too big to answer). */
  stoppedAtPages: boolean;
}

/** Gives the event loop back once SLICE_MS of work has run since it last did. */
class Turns {
  private since = performance.now();
  async take(): Promise<void> {
    if (performance.now() - this.since < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}

interface Tally {
  would: number;
  night: number;
  actual: number;
}

/** Replays `incidents` (oldest first) until they are done or the page budget is spent. */
export async function replayIncidents(input: {
  plan: EscalationPlan;
  incidents: IncidentRow[];
  actual: Map<string, ActualRow[]>;
  jobsAt: StepJobs;
  people: Map<string, { name: string; timeZone: string | null }>;
  nowMs: number;
}): Promise<Replayed> {
  const { plan, people, nowMs } = input;
  const turns = new Turns();
  const totals = new Map<string, Tally>();
  const tallyOf = (userId: string) => totals.get(userId) ?? totals.set(userId, { would: 0, night: 0, actual: 0 }).get(userId)!;
  const pageText = pageWriter(people);
  const night = nightMemo();
  const out: Replayed['incidents'] = [];
  let pagesLeft = WHAT_IF_MAX_PAGES;
  const stopped = () => ({ incidents: out, totals: totalsJson(totals, people), stoppedAtPages: true });

  for (const incident of input.incidents) {
    await turns.take();
    const openedAtMs = new Date(incident.created_at).getTime();
    const ended = incident.ended_at ? new Date(incident.ended_at).getTime() : null;
    // A cursor pins "now": a spell that ended after it was still TRIGGERED then.
    const endedAtMs = ended !== null && ended <= nowMs ? ended : null;
    // Only the first TRIGGERED spell is replayed: later spells' pages (after an ack timeout or a reopen) are left out of both sides.
    const real = (input.actual.get(incident.id) ?? []).filter((p) => endedAtMs === null || new Date(p.created_at).getTime() <= endedAtMs);
    const comparison = new Comparison(real);
    const wouldTexts: string[] = [];
    const mine = new Map<string, { would: number; night: number }>();
    let bytes = 0;
    for (const p of replayPages(plan, { openedAtMs, endedAtMs, untilMs: nowMs }, input.jobsAt)) {
      // Each page is serialized as it is replayed, a few at a time between turns: never a whole incident at once.
      const text = pageText(p.userId, p.channel, p.atMs);
      bytes += Buffer.byteLength(text) + 1;
      // An incident replayed only in part would differ falsely, and one too big for any answer cannot be sent: the replay stops before it.
      if (wouldTexts.length === pagesLeft || bytes > WHAT_IF_ANSWER.maxIncidentBytes) return stopped();
      wouldTexts.push(text);
      comparison.add(p.userId, p.channel, p.step);
      if (p.userId) {
        const t = mine.get(p.userId) ?? mine.set(p.userId, { would: 0, night: 0 }).get(p.userId)!;
        t.would += 1;
        if (night(p.atMs, people.get(p.userId)?.timeZone ?? 'UTC')) t.night += 1;
      }
      if (wouldTexts.length % PAGES_PER_LOOK === 0) await turns.take();
    }
    await turns.take();
    const differs = comparison.differs();
    const head = JSON.stringify({
      incident_id: incident.id,
      number: incident.number,
      title: incident.title,
      opened_at: new Date(openedAtMs).toISOString(),
      ended_at: endedAtMs === null ? null : new Date(endedAtMs).toISOString(),
    } satisfies Partial<IncidentJson>);
    const actually = real.map((p) => pageText(p.user_id, p.channel, new Date(p.created_at).getTime())).join(',');
    const text = `${head.slice(0, -1)},"would_page":[${wouldTexts.join(',')}],"actually_paged":[${actually}],"differs":${differs}}`;
    const size = Buffer.byteLength(text);
    if (size > WHAT_IF_ANSWER.maxIncidentBytes) return stopped();
    pagesLeft -= wouldTexts.length;
    for (const [userId, t] of mine) {
      const total = tallyOf(userId);
      total.would += t.would;
      total.night += t.night;
    }
    for (const p of real) if (p.user_id) tallyOf(p.user_id).actual += 1;
    out.push({ text, bytes: size, differs });
  }
  return { incidents: out, totals: totalsJson(totals, people), stoppedAtPages: false };
}

/**
 * A page as JSON text (a PageJson), written without building an object per page: a replay makes
 * up to 100,000 of them, and every allocation is garbage to collect while other requests wait.
 */
function pageWriter(people: Map<string, { name: string }>): (userId: string | null, channel: ChannelId, atMs: number) => string {
  const heads = new Map<string | null, string>();
  let lastAtMs = NaN;
  let lastAt = '';
  return (userId, channel, atMs) => {
    let head = heads.get(userId);
    if (head === undefined) {
      const name = userId ? (people.get(userId)?.name ?? null) : null;
      heads.set(userId, (head = `{"user_id":${JSON.stringify(userId)},"name":${JSON.stringify(name)},"channel":`));
    }
    // A step pages everyone at the same instant: one date string for all of them.
    if (atMs !== lastAtMs) {
      lastAtMs = atMs;
      lastAt = new Date(atMs).toISOString();
    }
    return `${head}${JSON.stringify(channel)},"at":"${lastAt}"}`;
  };
}

/**
 * Whether the replay's pages and the real ones differ in people, channels and steps, in any order
 * (times are shown, not compared: the real ones carry delivery delays). The real pages are known
 * first; the replay's are added one by one and only counted while they could still match.
 */
class Comparison {
  private readonly left = new Map<string, number>();
  private mismatch = false;

  constructor(real: readonly ActualRow[]) {
    for (const p of real) {
      const k = pageKey(p.user_id, p.channel, p.escalation_step);
      this.left.set(k, (this.left.get(k) ?? 0) + 1);
    }
  }

  add(userId: string | null, channel: ChannelId, step: number): void {
    if (this.mismatch) return;
    const k = pageKey(userId, channel, step);
    const n = this.left.get(k) ?? 0;
    if (n === 0) this.mismatch = true;
    else this.left.set(k, n - 1);
  }

  differs(): boolean {
    return this.mismatch || [...this.left.values()].some((n) => n > 0);
  }
}

/** What a page is compared by: who, how, at which step. */
const pageKey = (userId: string | null, channel: string, step: number | null) => `${userId}|${channel}|${step}`;

/**
 * isNight for one replay, remembered per zone and quarter hour: every zone's offset and its
 * changes fall on quarter hours, so the hour of the day is the same throughout one.
 */
function nightMemo(): (atMs: number, timeZone: string) => boolean {
  const zones = new Map<string, Map<number, boolean>>();
  return (atMs, timeZone) => {
    const seen = zones.get(timeZone) ?? zones.set(timeZone, new Map()).get(timeZone)!;
    const quarter = Math.floor(atMs / 900_000);
    let night = seen.get(quarter);
    if (night === undefined) seen.set(quarter, (night = isNight(atMs, timeZone)));
    return night;
  };
}

/** Per person, most would-pages first. */
function totalsJson(totals: Map<string, Tally>, people: Map<string, { name: string }>): TotalJson[] {
  return [...totals]
    .map(([userId, t]) => ({
      user_id: userId,
      name: people.get(userId)?.name ?? userId,
      would_pages: t.would,
      night_pages: t.night,
      actual_pages: t.actual,
    }))
    .sort((a, b) => b.would_pages - a.would_pages || b.actual_pages - a.actual_pages || a.name.localeCompare(b.name));
}
