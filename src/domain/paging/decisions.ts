/**
 * Paging decisions on the timeline (docs/architecture.md, "Incidents"): who an escalation step resolved to and from
 * what (a user, whoever a schedule had on call, a team's members), who was not paged and why,
 * and "nobody to page" when no one is left. The data behind "why was / wasn't I paged": a
 * structured record the UI renders, and one line a person reads. Pure: no I/O.
 */
import { CHANNELS, isChannelId } from '../channels';

/** Where a step's targets came from: the service's policy, or its owning team when it has none. */
export type StepSource = 'policy' | 'owning_team';

/** One target of a step and the people it resolved to at the step's instant. */
export interface ResolvedTarget {
  type: 'user' | 'schedule' | 'team';
  id: string;
  /** The schedule's or team's name, the user's email; null when it no longer exists. */
  name: string | null;
  userIds: string[];
}

/** A contact method a provider disabled (a bad number, an unregistered device). */
export interface DisabledContact {
  channel: string;
  address: string;
  reason: string | null;
}

/** A person a target resolved to, with the pages planned for them (none: not paged). */
export interface ResolvedPerson {
  userId: string;
  email: string;
  pages: Array<{ channel: string; delaySeconds: number }>;
  disabled: DisabledContact[];
}

/** Everything a step's decision is made of, as the plan activity found it. */
export interface StepResolution {
  /** 0-based, as the escalation counts. */
  stepIndex: number;
  /** Completed passes over the policy before this one. */
  cycle: number;
  source: StepSource;
  service: { id: string; name: string } | null;
  policy: { id: string; name: string } | null;
  /** A Form B source's channel list, and the ones it pages for this incident's severity. */
  formB: { configured: string[]; severity: string; paging: string[] } | null;
  targets: ResolvedTarget[];
  /** Every known person the targets resolved to, once each, in target order. */
  people: ResolvedPerson[];
}

/** Why a person the step resolved to was not paged. */
export type SkipReason = 'no_usable_contact_method' | 'no_contact_for_channels';

/** The decision entry's data (snake_case, as the APIs). */
export interface PagingDecisionData {
  kind: 'step_resolved' | 'nobody_to_page';
  step_number: number;
  pass_number: number;
  source: StepSource;
  service: { id: string; name: string } | null;
  policy: { id: string; name: string } | null;
  form_b: { channels: string[]; severity: string; paging_channels: string[] } | null;
  targets: Array<{ type: ResolvedTarget['type']; id: string; name: string | null; users: Array<{ id: string; email: string }>; empty_reason: string | null }>;
  paged: Array<{ user_id: string; email: string; pages: Array<{ channel: string; delay_seconds: number }>; disabled_contacts: DisabledContact[] }>;
  skipped: Array<{ user_id: string; email: string; reason: SkipReason; disabled_contacts: DisabledContact[] }>;
  /** Why nobody was paged, one readable reason each; empty when someone was. */
  nobody_reasons: string[];
}

const label = (channel: string) => (isChannelId(channel) ? CHANNELS[channel].label : channel);
const quoted = (name: string | null, id: string) => (name === null ? `${id} (no longer exists)` : `"${name}"`);

/** How a target names itself beside a person: `user`, `on call in schedule "Primary"`, `team "Ops"`. */
function via(t: ResolvedTarget): string {
  if (t.type === 'user') return 'user';
  return t.type === 'schedule' ? `on call in schedule ${quoted(t.name, t.id)}` : `team ${quoted(t.name, t.id)}`;
}

/** Why a target gave nobody, or null when it gave someone. */
function emptyReason(t: ResolvedTarget, known: ReadonlySet<string>): string | null {
  if (t.userIds.some((id) => known.has(id))) return null;
  if (t.name === null || t.type === 'user') return `${t.type} ${t.id} no longer exists`;
  return t.type === 'schedule' ? `schedule "${t.name}" has nobody on call` : `team "${t.name}" has no members`;
}

/** `SMS +1555… disabled (invalid number)`, for each disabled contact of a person. */
function disabledNote(p: ResolvedPerson): string {
  return p.disabled.map((d) => `${label(d.channel)} ${d.address} disabled${d.reason ? `: ${d.reason}` : ''}`).join('; ');
}

/** Why a person was not paged, as a sentence part. */
function skippedLine(p: ResolvedPerson, formB: StepResolution['formB']): string {
  const why = formB ? `has no notification rule or contact for ${formB.paging.map(label).join(', ')}` : 'has no usable contact method';
  const disabled = disabledNote(p);
  return `${p.email} ${why}${disabled ? ` (${disabled})` : ''}`;
}

/** `ann@x (user) by SMS, Voice call after 60 s`. */
function pagedLine(p: ResolvedPerson, targets: ResolvedTarget[]): string {
  const from = targets.filter((t) => t.userIds.includes(p.userId)).map(via);
  const pages = p.pages.map((pg) => `${label(pg.channel)}${pg.delaySeconds ? ` after ${pg.delaySeconds} s` : ''}`);
  const disabled = disabledNote(p);
  return `${p.email} (${[...new Set(from)].join('; ')}) by ${pages.join(', ')}${disabled ? ` (${disabled})` : ''}`;
}

/** What the step was: `step 1 of policy "On call"`, or why the owning team was paged. */
function scope(r: StepResolution): string {
  const channels = r.formB ? `, on the source's channels ${r.formB.configured.join(', ')}` : '';
  if (r.source === 'policy' && r.policy) {
    const pass = r.cycle > 0 ? ` (repeat ${r.cycle})` : '';
    return `step ${r.stepIndex + 1}${pass} of policy "${r.policy.name}"${channels}`;
  }
  const service = r.service ? `service "${r.service.name}" has` : 'the incident has';
  return `${service} no escalation policy, so its owning team is paged${channels}`;
}

/** The decision a step's resolution amounts to: its entry data and its line. */
export function pagingDecision(r: StepResolution): { data: PagingDecisionData; message: string } {
  const known = new Set(r.people.map((p) => p.userId));
  const paged = r.people.filter((p) => p.pages.length > 0);
  const skipped = r.people.filter((p) => p.pages.length === 0);
  const nobodyReasons: string[] = [];
  if (paged.length === 0) {
    if (r.formB && r.formB.paging.length === 0) {
      const severity = r.formB.severity.toLowerCase();
      nobodyReasons.push(
        `none of the source's channels (${r.formB.configured.join(', ')}) pages for ${/^[aeiou]/.test(severity) ? 'an' : 'a'} ${severity} incident`,
      );
    } else {
      if (r.targets.length === 0) nobodyReasons.push('the step has no targets');
      for (const t of r.targets) {
        const why = emptyReason(t, known);
        if (why) nobodyReasons.push(why);
      }
      for (const p of skipped) nobodyReasons.push(skippedLine(p, r.formB));
    }
  }
  const data: PagingDecisionData = {
    kind: paged.length ? 'step_resolved' : 'nobody_to_page',
    step_number: r.stepIndex + 1,
    pass_number: r.cycle + 1,
    source: r.source,
    service: r.service,
    policy: r.policy,
    form_b: r.formB && { channels: r.formB.configured, severity: r.formB.severity, paging_channels: r.formB.paging },
    targets: r.targets.map((t) => ({
      type: t.type,
      id: t.id,
      name: t.name,
      users: r.people.filter((p) => t.userIds.includes(p.userId)).map((p) => ({ id: p.userId, email: p.email })),
      empty_reason: emptyReason(t, known),
    })),
    paged: paged.map((p) => ({
      user_id: p.userId,
      email: p.email,
      pages: p.pages.map((pg) => ({ channel: pg.channel, delay_seconds: pg.delaySeconds })),
      disabled_contacts: p.disabled,
    })),
    skipped: skipped.map((p) => ({
      user_id: p.userId,
      email: p.email,
      reason: r.formB ? 'no_contact_for_channels' : 'no_usable_contact_method',
      disabled_contacts: p.disabled,
    })),
    nobody_reasons: nobodyReasons,
  };
  return { data, message: describe(r, paged, skipped, nobodyReasons) };
}

function describe(r: StepResolution, paged: ResolvedPerson[], skipped: ResolvedPerson[], nobodyReasons: string[]): string {
  const where = scope(r);
  if (paged.length === 0)
    return r.source === 'policy' ? `Nobody to page at ${where}: ${nobodyReasons.join('; ')}.` : `Nobody to page: ${where}, and ${nobodyReasons.join('; ')}.`;
  const head = `${where.charAt(0).toUpperCase()}${where.slice(1)}: paging ${paged.map((p) => pagedLine(p, r.targets)).join('; ')}.`;
  const notPaged = skipped.length ? ` Not paged: ${skipped.map((p) => skippedLine(p, r.formB)).join('; ')}.` : '';
  return head + notPaged;
}
