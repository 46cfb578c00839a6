import { IANAZone } from 'luxon';
import { anchorRotation, layerSizeRefusal, withinLayerLimit } from '../../domain/importers/layers';
import { firstSharedMinute, weeklyCoverage } from '../../domain/importers/overlap';
import { contactAddress, phoneOf, ruleDelayOf } from '../../domain/importers/contacts';
import { opsgenieRole } from '../../domain/importers/roles';
import type {
  ImportPlan,
  PlannedContactMethod,
  PlannedLayer,
  PlannedNotificationRule,
  PlannedPolicy,
  PlannedRestriction,
  PlannedSchedule,
  PlannedService,
  PlannedSource,
  PlannedTarget,
  Skipped,
} from '../../domain/importers/plan';
import { hhmm, isoWeekday } from '../../domain/importers/time';
import { PAGING_LIMITS } from '../../domain/paging/config';
import { normaliseRoutingKey } from '../../domain/routing-key';
import type { OgEscalation, OgRotation, OgTimeRestriction, OpsgenieData } from './import-schemas';

/**
 * Opsgenie's objects as an import plan (docs/importers.md, "Opsgenie"). Pure: what Opsgenie said
 * and the current instant in, the plan out; everything that cannot be mapped is in `skipped`
 * with why.
 */

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const UNITS = { hourly: 'hours', daily: 'days', weekly: 'weeks' } as const;
const MINUTES = { minutes: 1, hours: 60, days: 1440 } as const;

type Mapped<T> = { ok: true; value: T } | { ok: false; why: string };

const clockOk = (h: number, m: number) => Number.isInteger(h) && Number.isInteger(m) && h >= 0 && h <= 23 && m >= 0 && m <= 59;

/** A rotation's time restriction as Klaxon windows. */
export function windowsOf(tr: OgTimeRestriction): Mapped<PlannedRestriction[]> {
  if (tr.type === 'time-of-day' && tr.restriction) {
    const r = tr.restriction;
    if (!clockOk(r.startHour, r.startMin) || !clockOk(r.endHour, r.endMin)) return { ok: false, why: 'its time restriction is not a time of day' };
    const minutes = (r.endHour * 60 + r.endMin - (r.startHour * 60 + r.startMin) + 1440) % 1440 || 1440;
    return { ok: true, value: [{ type: 'daily', start_time: hhmm(r.startHour, r.startMin), duration_seconds: minutes * 60 }] };
  }
  if (tr.type === 'weekday-and-time-of-day' && tr.restrictions?.length) {
    const windows: PlannedRestriction[] = [];
    for (const r of tr.restrictions) {
      const start = isoWeekday(r.startDay);
      const end = isoWeekday(r.endDay);
      if (!start || !end || !clockOk(r.startHour, r.startMin) || !clockOk(r.endHour, r.endMin)) {
        return {
          ok: false,
          why: `its time restriction ${r.startDay} ${r.startHour}:${r.startMin} to ${r.endDay} ${r.endHour}:${r.endMin} is not a weekly window`,
        };
      }
      const from = (start - 1) * 1440 + r.startHour * 60 + r.startMin;
      const to = (end - 1) * 1440 + r.endHour * 60 + r.endMin;
      const minutes = (to - from + 7 * 1440) % (7 * 1440) || 7 * 1440;
      windows.push({ type: 'weekly', start_day: start, start_time: hhmm(r.startHour, r.startMin), duration_seconds: minutes * 60 });
    }
    return { ok: true, value: windows };
  }
  return { ok: false, why: `its time restriction of type ${JSON.stringify(tr.type)} has no windows Klaxon knows` };
}

/** One rotation as a layer, or null (the reason skipped); participants Klaxon cannot hold are reported. */
function layerOf(rot: OgRotation, position: number, zone: string, known: Set<string>, now: Date, skip: (why: string) => void): PlannedLayer | null {
  if (rot.endDate && Date.parse(rot.endDate) <= now.getTime()) {
    skip(`it ended at ${rot.endDate}`);
    return null;
  }
  const unit = UNITS[rot.type as keyof typeof UNITS];
  const length = rot.length ?? 1;
  if (!unit || length < 1 || length > 1000) {
    skip(`its rotation ${rot.type} × ${length} is not hourly, daily or weekly up to 1000`);
    return null;
  }
  const users: string[] = [];
  for (const p of rot.participants ?? []) {
    if (p.type === 'user' && p.id && known.has(p.id)) users.push(p.id);
    else if (p.type === 'user') skip(`participant ${p.username ?? p.id ?? '?'} is not in Opsgenie's user list: left out of the rotation`);
    else if (p.type === 'none')
      skip('a participant of type none (a turn with nobody): Klaxon rotations hold people only, so it is left out and later turns come sooner');
    else skip(`participant ${p.name ?? p.id ?? '?'} of type ${p.type}: a Klaxon rotation holds people only, so it is left out`);
  }
  if (users.length === 0) {
    skip('nobody in it can be brought in');
    return null;
  }
  let restrictions: PlannedRestriction[] | undefined;
  if (rot.timeRestriction) {
    const windows = windowsOf(rot.timeRestriction);
    if (!windows.ok) {
      skip(windows.why);
      return null;
    }
    restrictions = windows.value;
  }
  const tooBig = layerSizeRefusal(users, restrictions);
  if (tooBig) {
    skip(tooBig);
    return null;
  }
  const rotation = { unit, length };
  const anchored = anchorRotation({ rotationStart: rot.startDate, zone, rotation, users, now });
  if (!anchored.ok) {
    skip(anchored.why);
    return null;
  }
  if (rot.endDate) skip(`it ends at ${rot.endDate}: Klaxon layers do not end, remove it in Klaxon then`);
  return {
    externalId: rot.id,
    name: rot.name?.trim() || `Rotation ${position}`,
    users: anchored.users,
    rotation,
    handoff_time: anchored.handoff_time,
    start: anchored.start,
    ...(restrictions ? { restrictions } : {}),
  };
}

function scheduleOf(s: OpsgenieData['schedules'][number], known: Set<string>, now: Date, skipped: Skipped[]): PlannedSchedule | null {
  const skipSchedule = (why: string) => skipped.push({ kind: 'schedule', external_id: s.id, name: s.name, why });
  if (s.enabled === false) {
    skipSchedule('it is disabled in Opsgenie');
    return null;
  }
  if (!IANAZone.isValidZone(s.timezone)) {
    skipSchedule(`its time zone ${JSON.stringify(s.timezone)} is not an IANA zone Klaxon knows`);
    return null;
  }
  const layers = (s.rotations ?? []).flatMap((rot, i) => {
    const name = rot.name?.trim() || `Rotation ${i + 1}`;
    const skip = (why: string) => skipped.push({ kind: 'schedule', external_id: `${s.id}/${rot.id}`, name: `${s.name} / ${name}`, why });
    const layer = layerOf(rot, i + 1, s.timezone, known, now, skip);
    return layer ? [layer] : [];
  });
  const kept = withinLayerLimit(layers, { externalId: s.id, name: s.name }, skipped);
  if (kept.length === 0) {
    skipSchedule('none of its rotations could be brought in (each is listed with why)');
    return null;
  }
  // Opsgenie pages all rotations at once; Klaxon's upper layer wins where two overlap.
  const coverage = kept.map((l) => weeklyCoverage(l.restrictions));
  for (let i = 0; i < kept.length; i++) {
    for (let j = i + 1; j < kept.length; j++) {
      const shared = firstSharedMinute(coverage[i], coverage[j]);
      if (shared) {
        skipped.push({
          kind: 'schedule',
          external_id: `${s.id}/${kept[i].externalId}`,
          name: `${s.name} / ${kept[i].name}`,
          why: `it can be on call together with ${kept[j].name} (e.g. ${shared}): Opsgenie pages both, Klaxon pages the upper layer's person only (${kept[j].name})`,
        });
      }
    }
  }
  const rotationIds = new Set(kept.map((l) => l.externalId));
  const overrides = s.overrides.flatMap((o) => {
    const skip = (why: string) => {
      skipped.push({ kind: 'schedule', external_id: `${s.id}/overrides/${o.alias}`, name: `${s.name} / override`, why });
      return [];
    };
    if (Date.parse(o.endDate) <= now.getTime()) return [];
    if (o.user.type !== 'user' || !o.user.id || !known.has(o.user.id))
      return skip(`its participant ${o.user.username ?? o.user.name ?? o.user.id ?? '?'} is not a known user`);
    const only = (o.rotations ?? []).map((r) => r.id);
    if (only.length && !(rotationIds.size === 1 || [...rotationIds].every((id) => only.includes(id)))) {
      return skip('it overrides only some rotations: a Klaxon override covers the whole schedule');
    }
    return [{ externalId: o.alias, user: o.user.id, from: o.startDate, to: o.endDate }];
  });
  return { externalId: s.id, name: s.name, timeZone: s.timezone, layers: kept, overrides };
}

/** Why a rule's recipient cannot be a Klaxon target, or the target. */
function targetOf(rule: OgEscalation['rules'][number], known: { users: Set<string>; schedules: Set<string>; teams: Set<string> }): Mapped<PlannedTarget> {
  const r = rule.recipient;
  const what = `${r.type} ${r.name ?? r.username ?? r.id ?? '?'}`;
  if (rule.condition !== 'if-not-acked')
    return { ok: false, why: `its condition ${rule.condition}: Klaxon escalates only while nobody has acknowledged (if-not-acked)` };
  const needs = (set: Set<string>, type: PlannedTarget['type']): Mapped<PlannedTarget> =>
    r.id && set.has(r.id)
      ? { ok: true, value: { type, externalId: r.id } }
      : { ok: false, why: `its recipient ${what} was not brought in (see its own entry, if Opsgenie listed it)` };
  if (r.type === 'user') return rule.notifyType === 'default' ? needs(known.users, 'user') : { ok: false, why: `notifyType ${rule.notifyType} for a user` };
  if (r.type === 'schedule') {
    if (rule.notifyType === 'default') return needs(known.schedules, 'schedule');
    return { ok: false, why: `notifyType ${rule.notifyType} (the ${rule.notifyType} on-call of ${what}): Klaxon pages who is on call now` };
  }
  if (r.type === 'team') {
    if (rule.notifyType === 'all' || rule.notifyType === 'users') return needs(known.teams, 'team');
    if (rule.notifyType === 'default')
      return { ok: false, why: `notifyType default for ${what} notifies it through its routing rules, which are not imported` };
    return { ok: false, why: `notifyType ${rule.notifyType} for ${what}: Klaxon pages every member of a team` };
  }
  return { ok: false, why: `a recipient of type ${r.type}, which Klaxon cannot page` };
}

function policyOf(esc: OgEscalation, known: Parameters<typeof targetOf>[1], skipped: Skipped[]): PlannedPolicy | null {
  const skip = (external: string, name: string, why: string) => skipped.push({ kind: 'escalation_policy', external_id: external, name, why });
  // Opsgenie counts each rule's delay from the alert's creation; Klaxon waits between steps.
  const byDelay = new Map<number, PlannedTarget[]>();
  esc.rules.forEach((rule, i) => {
    const minutes = rule.delay.timeAmount * (MINUTES[(rule.delay.timeUnit ?? 'minutes') as keyof typeof MINUTES] ?? NaN);
    const target = targetOf(rule, known);
    if (!Number.isFinite(minutes) || minutes < 0)
      return skip(`${esc.id}/rules/${i}`, `${esc.name} / rule ${i + 1}`, `its delay ${rule.delay.timeAmount} ${rule.delay.timeUnit ?? ''} is not a duration`);
    if (!target.ok) return skip(`${esc.id}/rules/${i}`, `${esc.name} / rule ${i + 1}`, target.why);
    byDelay.set(minutes, [...(byDelay.get(minutes) ?? []), target.value]);
  });
  const delays = [...byDelay.keys()].sort((a, b) => a - b);
  if (delays.length === 0) {
    skip(esc.id, esc.name, 'none of its rules could be brought in (each is listed with why)');
    return null;
  }
  if (delays[0] > 0) skip(esc.id, esc.name, `its first rule waits ${delays[0]} minutes: Klaxon pages the first step at once`);
  const wait = esc.repeat?.waitInterval ?? 0;
  const steps = delays.map((d, i) => {
    const next = delays[i + 1];
    const gapMinutes = next === undefined ? Math.max(wait, 1) : next - d;
    return { delaySeconds: Math.min(gapMinutes * 60, PAGING_LIMITS.maxDelaySeconds), targets: byDelay.get(d)!.slice(0, PAGING_LIMITS.maxTargetsPerStep) };
  });
  if (steps.length > PAGING_LIMITS.maxSteps) {
    skip(esc.id, esc.name, `it has ${steps.length} steps, more than Klaxon's ${PAGING_LIMITS.maxSteps}: the later ones are left out`);
    steps.length = PAGING_LIMITS.maxSteps;
  }
  let repeat = esc.repeat?.count ?? 0;
  if (repeat > PAGING_LIMITS.maxRepeat) {
    skip(esc.id, esc.name, `it repeats ${repeat} times: Klaxon repeats a policy at most ${PAGING_LIMITS.maxRepeat} times`);
    repeat = PAGING_LIMITS.maxRepeat;
  }
  return { externalId: esc.id, name: esc.name, steps, repeat: Math.max(0, repeat) };
}

/** A team's escalation: the one Opsgenie made with the team (`<team>_escalation`), else its first by name. */
function teamEscalation(teamId: string, teamName: string, escalations: OgEscalation[], mapped: Set<string>): string | null {
  const owned = escalations.filter((e) => e.ownerTeam?.id === teamId && mapped.has(e.id)).sort((a, b) => a.name.localeCompare(b.name));
  return (owned.find((e) => e.name === `${teamName}_escalation`) ?? owned[0])?.id ?? null;
}

const CONTACT_TYPES: Record<string, PlannedContactMethod['type']> = { email: 'email', sms: 'sms', voice: 'voice' };
const STEP_UNITS: Record<string, number> = { minutes: 1, hours: 60, days: 1440 };

/** A person's contacts and the steps of their new-alert rules (docs/importers.md, "Contact methods and rules"). */
function contactsOf(u: OpsgenieData['users'][number], name: string, skipped: Skipped[]) {
  const methods: PlannedContactMethod[] = [];
  for (const c of u.contacts) {
    const external = `${u.id}/${c.id}`;
    const skip = (why: string) => skipped.push({ kind: 'contact_method', external_id: external, name: `${name} / ${c.method}`, why });
    const type = CONTACT_TYPES[c.method];
    if (c.method === 'mobile') {
      skip("a push to Opsgenie's mobile app: Klaxon pushes to its own app or browser instead (My profile → Enable push on this device)");
      continue;
    }
    if (!type) {
      skip(`a contact of method ${c.method}, which Klaxon cannot page`);
      continue;
    }
    if (c.status?.enabled === false) {
      skip(`it is disabled in Opsgenie${c.status.disabledReason ? ` (${c.status.disabledReason})` : ''}`);
      continue;
    }
    const address = contactAddress(type, type === 'email' ? c.to : phoneOf(null, c.to));
    if (!address.ok) {
      skip(address.why);
      continue;
    }
    if (methods.some((m) => m.type === type && m.address === address.address)) continue;
    methods.push({ externalId: external, user: u.id, type, address: address.address, label: null });
  }
  const rules: PlannedNotificationRule[] = [];
  for (const rule of u.notificationRules) {
    const ruleName = `${name} / ${rule.name?.trim() || rule.actionType}`;
    const skipRule = (why: string) => skipped.push({ kind: 'notification_rule', external_id: `${u.id}/${rule.id}`, name: ruleName, why });
    if (rule.actionType !== 'create-alert') {
      skipRule(`a rule for ${rule.actionType}: Klaxon's rules say how a person is paged for a new alert (create-alert) only`);
      continue;
    }
    if (rule.enabled === false) {
      skipRule('it is disabled in Opsgenie');
      continue;
    }
    const conditional = (rule.criteria?.type && rule.criteria.type !== 'match-all') || rule.timeRestriction;
    if (conditional) skipRule('Opsgenie applies it to some alerts or times only; Klaxon pages by its steps for every alert');
    for (const step of rule.steps) {
      const external = `${u.id}/${rule.id}/${step.id}`;
      const skip = (why: string) => skipped.push({ kind: 'notification_rule', external_id: external, name: ruleName, why });
      if (step.enabled === false) {
        skip('this step is disabled in Opsgenie');
        continue;
      }
      const type = CONTACT_TYPES[step.contact.method];
      const address = type ? contactAddress(type, type === 'email' ? step.contact.to : phoneOf(null, step.contact.to)) : undefined;
      const method = type && address?.ok ? methods.find((m) => m.type === type && m.address === address.address) : undefined;
      if (!method) {
        skip(`its ${step.contact.method} contact was not brought in (see the person's contacts)`);
        continue;
      }
      const unit = STEP_UNITS[step.sendAfter?.timeUnit ?? 'minutes'];
      const delay = ruleDelayOf(unit === undefined ? NaN : (step.sendAfter?.timeAmount ?? 0) * unit);
      if (!delay.ok) {
        skip(delay.why);
        continue;
      }
      rules.push({ externalId: external, user: u.id, contactMethod: method.externalId, delaySeconds: delay.seconds });
    }
  }
  return { methods, rules };
}

/** The whole plan for one Opsgenie account at `now`. */
export function mapOpsgenie(data: OpsgenieData, opts: { now: Date }): ImportPlan {
  const skipped: Skipped[] = [];
  const contactMethods: PlannedContactMethod[] = [];
  const notificationRules: PlannedNotificationRule[] = [];
  const users = data.users.flatMap((u) => {
    const email = u.username.trim().toLowerCase();
    if (!EMAIL.test(email)) {
      skipped.push({
        kind: 'user',
        external_id: u.id,
        name: u.fullName ?? u.username,
        why: 'its username is not an email address, and people are matched by email',
      });
      return [];
    }
    const name = u.fullName?.trim() || email;
    const { role, note } = opsgenieRole(u.role?.name);
    if (note) skipped.push({ kind: 'user', external_id: u.id, name, why: note });
    const contacts = contactsOf(u, name, skipped);
    contactMethods.push(...contacts.methods);
    notificationRules.push(...contacts.rules);
    return [{ externalId: u.id, name, email, role }];
  });
  const userIds = new Set(users.map((u) => u.externalId));
  const teams = data.teams.map((t) => ({ externalId: t.id, name: t.name, members: (t.members ?? []).map((m) => m.user.id).filter((id) => userIds.has(id)) }));
  const teamNames = new Map(teams.map((t) => [t.externalId, t.name]));
  const schedules = data.schedules.flatMap((s) => scheduleOf(s, userIds, opts.now, skipped) ?? []);
  const known = { users: userIds, schedules: new Set(schedules.map((s) => s.externalId)), teams: new Set(teamNames.keys()) };
  const policies = data.escalations.flatMap((e) => policyOf(e, known, skipped) ?? []);
  const policyIds = new Set(policies.map((p) => p.externalId));
  const escalationOf = (teamId: string | null | undefined) =>
    teamId && teamNames.has(teamId) ? teamEscalation(teamId, teamNames.get(teamId)!, data.escalations, policyIds) : null;

  const services: PlannedService[] = data.services.map((s) => ({
    externalId: s.id,
    name: s.name,
    description: s.description?.trim() || null,
    policy: escalationOf(s.teamId),
    team: s.teamId && teamNames.has(s.teamId) ? s.teamId : null,
  }));
  const sources: PlannedSource[] = [];
  for (const integration of data.integrations) {
    const skip = (why: string) => skipped.push({ kind: 'source', external_id: integration.id, name: integration.name, why });
    if (integration.type !== 'API') {
      skip(
        `an integration of type ${integration.type}: only API integrations (the Alert API with a GenieKey) keep working by their key; point that sender at a Klaxon source`,
      );
      continue;
    }
    if (integration.enabled === false) {
      skip('it is disabled in Opsgenie');
      continue;
    }
    const key = integration.apiKey ? normaliseRoutingKey(integration.apiKey) : undefined;
    if (!key) {
      skip('Opsgenie did not give its API key');
      continue;
    }
    const teamId = integration.ownerTeam?.id ?? integration.teamId ?? null;
    if (!teamId || !teamNames.has(teamId)) {
      skip('it has no team: a Klaxon source feeds a service, which a team owns');
      continue;
    }
    // Alerts reach an Opsgenie team; in Klaxon they reach one of its services (one named after the team when it has none).
    let service = services.filter((s) => s.team === teamId).sort((a, b) => a.name.localeCompare(b.name))[0];
    if (!service) {
      service = {
        externalId: `team:${teamId}`,
        name: teamNames.get(teamId)!,
        description: 'Alerts of the Opsgenie team',
        policy: escalationOf(teamId),
        team: teamId,
      };
      services.push(service);
    }
    sources.push({ externalId: integration.id, name: integration.name, service: service.externalId, routingKey: key });
  }
  return { system: 'opsgenie', users, contactMethods, notificationRules, teams, schedules, policies, services, sources, skipped };
}
