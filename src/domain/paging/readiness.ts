/**
 * Readiness (docs/readiness.md): what would fail a page in the next days, found before it
 * matters. Pure: the service reads schedules' on-call spans, policies and each person's reach
 * (how soon their rules first page them, if at all), and this lists the gaps.
 */

export const READINESS_KINDS = [
  'no_working_contact',
  'rules_too_slow',
  'failed_in_drill',
  'schedule_gap',
  'step_resolves_to_nobody',
  'imported_unconfirmed',
  'invited_not_member',
] as const;
export type ReadinessKind = (typeof READINESS_KINDS)[number];

/** A person's rules first page them this many seconds after their step; null: nothing reaches them. */
export type FirstPageSeconds = number | null;

/** "Rules page nothing within 5 minutes". */
export const SLOW_FIRST_PAGE_SECONDS = 300;

export interface ReadinessGap {
  kind: ReadinessKind;
  user_id?: string;
  schedule_id?: string;
  policy_id?: string;
  from: string;
  to: string;
  detail: string;
}

/** Who a schedule puts on call, span by span, over the window (members only: paging skips people who left). */
export interface ScheduleShifts {
  id: string;
  name: string;
  spans: Array<{ start: number; end: number; userIds: string[] }>;
}

/** A policy's steps, each target with what it stands for (schedules by id, teams by their members now). */
export interface PolicyReach {
  id: string;
  name: string;
  steps: Array<{
    targets: Array<{ type: 'user'; id: string } | { type: 'schedule'; id: string } | { type: 'team'; id: string; name: string; userIds: string[] }>;
  }>;
}

export interface ReadinessInput {
  from: number;
  to: number;
  schedules: ScheduleShifts[];
  policies: PolicyReach[];
  /** Per member: how soon their rules first page them. People not in it are not members. */
  reach: Map<string, FirstPageSeconds>;
  names: Map<string, string>;
  /** Per member whose latest paging drill reached them on no channel: why (docs/drills.md). */
  drillFailures?: Map<string, string>;
  /** Per member paged on contact methods an import brought in that no page or drill has reached yet: which (docs/importers.md). */
  unconfirmed?: Map<string, string>;
  /** Members who are never paged (Stakeholders). */
  neverPaged?: Set<string>;
  /** Places people an import invited (their account is outside the workspace) are missing from, while they are not members. */
  leftOut?: Array<{ email: string; scheduleId: string | null; policyId: string | null; place: string }>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** What is wrong with reaching this person, if anything (the worst first). */
function reachProblem(input: ReadinessInput, userId: string): { kind: ReadinessKind; why: string } | null {
  if (input.neverPaged?.has(userId)) return { kind: 'no_working_contact', why: 'is a Stakeholder, who is never paged' };
  const first = input.reach.get(userId);
  const drillFailure = input.drillFailures?.get(userId);
  if (first === undefined) return { kind: 'no_working_contact', why: 'is no longer a member of this workspace' };
  if (first === null) return { kind: 'no_working_contact', why: 'has no verified, working contact method' };
  if (drillFailure) return { kind: 'failed_in_drill', why: `was not reached by their last paging drill (${drillFailure})` };
  if (first > SLOW_FIRST_PAGE_SECONDS)
    return { kind: 'rules_too_slow', why: `is first paged ${Math.round(first / 60)} min after their step (more than 5 min)` };
  const unconfirmed = input.unconfirmed?.get(userId);
  if (unconfirmed)
    return {
      kind: 'imported_unconfirmed',
      why: `is paged on contact methods imported, not yet confirmed in Klaxon (${unconfirmed}): a test page or drill that reaches them confirms them`,
    };
  return null;
}

/** Every gap over [from, to): people on call who cannot be reached in time, nobody on call, steps that page nobody. */
export function readinessGaps(input: ReadinessInput): ReadinessGap[] {
  const gaps: ReadinessGap[] = [];
  const name = (id: string) => input.names.get(id) ?? id;
  for (const s of input.schedules) {
    // Consecutive spans of one person merge into one shift, so a gap reads as a shift.
    const open = new Map<string, { start: number; end: number }>();
    const flush = (userId: string) => {
      const shift = open.get(userId)!;
      open.delete(userId);
      const problem = reachProblem(input, userId);
      if (problem)
        gaps.push({
          kind: problem.kind,
          user_id: userId,
          schedule_id: s.id,
          from: iso(shift.start),
          to: iso(shift.end),
          detail: `${name(userId)} is on call on "${s.name}" and ${problem.why}`,
        });
    };
    for (const span of s.spans) {
      for (const userId of [...open.keys()]) if (!span.userIds.includes(userId) || open.get(userId)!.end !== span.start) flush(userId);
      for (const userId of span.userIds) {
        const shift = open.get(userId);
        if (shift) shift.end = span.end;
        else open.set(userId, { start: span.start, end: span.end });
      }
      if (span.userIds.length === 0)
        gaps.push({ kind: 'schedule_gap', schedule_id: s.id, from: iso(span.start), to: iso(span.end), detail: `nobody is on call on "${s.name}"` });
    }
    for (const userId of [...open.keys()]) flush(userId);
  }
  const schedules = new Map(input.schedules.map((s) => [s.id, s]));
  for (const p of input.policies) {
    p.steps.forEach((step, i) => {
      for (const stretch of nobodyStretches(step.targets, schedules, input.reach, input.from, input.to))
        gaps.push({
          kind: 'step_resolves_to_nobody',
          policy_id: p.id,
          from: iso(stretch.start),
          to: iso(stretch.end),
          detail: `step ${i + 1} of "${p.name}" pages nobody: ${describeTargets(step.targets, schedules, name)}`,
        });
      for (const t of step.targets) {
        if (t.type !== 'user') continue;
        const problem = reachProblem(input, t.id);
        if (problem)
          gaps.push({
            kind: problem.kind,
            user_id: t.id,
            policy_id: p.id,
            from: iso(input.from),
            to: iso(input.to),
            detail: `${name(t.id)} is paged at step ${i + 1} of "${p.name}" and ${problem.why}`,
          });
      }
    });
  }
  for (const l of input.leftOut ?? [])
    gaps.push({
      kind: 'invited_not_member',
      ...(l.scheduleId ? { schedule_id: l.scheduleId } : {}),
      ...(l.policyId ? { policy_id: l.policyId } : {}),
      from: iso(input.from),
      to: iso(input.to),
      detail: `${l.email} is missing from ${l.place}: their Klaxon account is outside this workspace, so the import invited them instead; once they accept, import again`,
    });
  return gaps.sort((a, b) => a.from.localeCompare(b.from) || a.kind.localeCompare(b.kind));
}

/** Where a step's targets together name no member: the stretches of the window, merged. */
function nobodyStretches(
  targets: PolicyReach['steps'][number]['targets'],
  schedules: Map<string, ScheduleShifts>,
  members: ReadonlyMap<string, unknown>,
  from: number,
  to: number,
) {
  // Users and teams do not change over the window; schedules change at their spans' edges.
  const always = targets.some((t) => (t.type === 'user' && members.has(t.id)) || (t.type === 'team' && t.userIds.length > 0));
  if (always) return [];
  const edges = new Set([from, to]);
  for (const t of targets)
    if (t.type === 'schedule')
      for (const s of schedules.get(t.id)?.spans ?? []) edges.add(Math.min(to, Math.max(from, s.start))).add(Math.min(to, Math.max(from, s.end)));
  const points = [...edges].sort((a, b) => a - b);
  const out: Array<{ start: number; end: number }> = [];
  for (let i = 0; i < points.length - 1; i++) {
    const [start, end] = [points[i], points[i + 1]];
    if (start === end) continue;
    const someone = targets.some(
      (t) => t.type === 'schedule' && (schedules.get(t.id)?.spans.some((s) => s.start <= start && start < s.end && s.userIds.length > 0) ?? false),
    );
    if (someone) continue;
    const last = out[out.length - 1];
    if (last && last.end === start) last.end = end;
    else out.push({ start, end });
  }
  return out;
}

function describeTargets(targets: PolicyReach['steps'][number]['targets'], schedules: Map<string, ScheduleShifts>, name: (id: string) => string): string {
  if (targets.length === 0) return 'it has no targets';
  return targets
    .map((t) =>
      t.type === 'schedule'
        ? `schedule "${schedules.get(t.id)?.name ?? t.id}" has nobody on call`
        : t.type === 'team'
          ? `team "${t.name}" has no members`
          : `${name(t.id)} is not a member`,
    )
    .join('; ');
}
