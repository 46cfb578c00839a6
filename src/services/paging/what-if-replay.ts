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
import { isNight, replayPages, type SimulatedPage, type StepJobs } from '../../domain/paging/what-if';
import { WHAT_IF_ANSWER, type SizedIncident } from './what-if-answer';
import type { ActualRow, IncidentRow } from './what-if-reads';

/** The most simulated pages one replay takes; past them it stops and the answer says `truncated`. */
export const WHAT_IF_MAX_PAGES = 100_000;

/** How long the replay runs before letting other callbacks in: far below the 100 ms it must never block. */
const SLICE_MS = 15;
/** Pages taken between two looks at the clock. */
const PAGES_PER_LOOK = 512;

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
  incidents: Array<SizedIncident<IncidentJson>>;
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
  const pageJson = (userId: string | null, channel: ChannelId, atMs: number): PageJson => ({
    user_id: userId,
    name: userId ? (people.get(userId)?.name ?? null) : null,
    channel,
    at: new Date(atMs).toISOString(),
  });
  const out: Replayed['incidents'] = [];
  let pagesLeft = WHAT_IF_MAX_PAGES;

  for (const incident of input.incidents) {
    await turns.take();
    const openedAtMs = new Date(incident.created_at).getTime();
    const ended = incident.ended_at ? new Date(incident.ended_at).getTime() : null;
    // A cursor pins "now": a spell that ended after it was still TRIGGERED then.
    const endedAtMs = ended !== null && ended <= nowMs ? ended : null;
    const would: SimulatedPage[] = [];
    const wouldJson: PageJson[] = [];
    const mine = new Map<string, { would: number; night: number }>();
    let overBudget = false;
    for (const p of replayPages(plan, { openedAtMs, endedAtMs, untilMs: nowMs }, input.jobsAt)) {
      if (would.length === pagesLeft) {
        overBudget = true;
        break;
      }
      would.push(p);
      wouldJson.push(pageJson(p.userId, p.channel, p.atMs));
      if (p.userId) {
        const t = mine.get(p.userId) ?? mine.set(p.userId, { would: 0, night: 0 }).get(p.userId)!;
        t.would += 1;
        if (isNight(p.atMs, people.get(p.userId)?.timeZone ?? 'UTC')) t.night += 1;
      }
      if (would.length % PAGES_PER_LOOK === 0) await turns.take();
    }
    // Only the first TRIGGERED spell is replayed: later spells' pages (after an ack timeout or a reopen) are left out of both sides.
    const real = (input.actual.get(incident.id) ?? []).filter((p) => endedAtMs === null || new Date(p.created_at).getTime() <= endedAtMs);
    const json: IncidentJson = {
      incident_id: incident.id,
      number: incident.number,
      title: incident.title,
      opened_at: new Date(openedAtMs).toISOString(),
      ended_at: endedAtMs === null ? null : new Date(endedAtMs).toISOString(),
      would_page: wouldJson,
      actually_paged: real.map((p) => pageJson(p.user_id, p.channel, new Date(p.created_at).getTime())),
      differs: differ(would, real),
    };
    const bytes = overBudget ? 0 : Buffer.byteLength(JSON.stringify(json));
    // An incident replayed only in part would differ falsely, and one too big for any answer cannot be sent: the replay stops before it.
    if (overBudget || bytes > WHAT_IF_ANSWER.maxIncidentBytes) return { incidents: out, totals: totalsJson(totals, people), stoppedAtPages: true };
    pagesLeft -= would.length;
    for (const [userId, t] of mine) {
      const total = tallyOf(userId);
      total.would += t.would;
      total.night += t.night;
    }
    for (const p of real) if (p.user_id) tallyOf(p.user_id).actual += 1;
    out.push({ json, bytes, differs: json.differs });
  }
  return { incidents: out, totals: totalsJson(totals, people), stoppedAtPages: false };
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

/** Same people, channels and steps on both sides (times are shown, not compared: the real ones carry delivery delays). */
function differ(would: SimulatedPage[], real: ActualRow[]): boolean {
  if (would.length !== real.length) return true;
  const key = (userId: string | null, channel: string, step: number | null) => `${userId}|${channel}|${step}`;
  const a = would.map((p) => key(p.userId, p.channel, p.step)).sort();
  const b = real.map((p) => key(p.user_id, p.channel, p.escalation_step)).sort();
  return a.some((k, i) => k !== b[i]);
}
