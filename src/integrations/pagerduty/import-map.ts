import { IANAZone } from 'luxon';
import { anchorRotation, layerSizeRefusal, withinLayerLimit } from '../../domain/importers/layers';
import { contactAddress, phoneOf, ruleDelayOf } from '../../domain/importers/contacts';
import { pagerDutyRole } from '../../domain/importers/roles';
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
  Skipped,
} from '../../domain/importers/plan';
import { clockOf, rotationOfSeconds } from '../../domain/importers/time';
import { PAGING_LIMITS } from '../../domain/paging/config';
import { normaliseRoutingKey } from '../../domain/routing-key';
import type { PagerDutyData, PdEscalationPolicy, PdLayer, PdRestriction, PdSchedule, PdService, PdUser } from './import-schemas';

/**
 * PagerDuty's objects as an import plan (docs/importers.md, "PagerDuty"). Pure: what PagerDuty
 * said and the current instant in, the plan out; everything that cannot be mapped is in
 * `skipped` with why.
 */

/** The Events API v2 integration: its key is what senders post with, so it is kept as the routing key. */
export const EVENTS_V2_INTEGRATION = 'events_api_v2_inbound_integration';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** A restriction in Klaxon's shape, or why not. */
function restrictionOf(r: PdRestriction): { ok: true; value: PlannedRestriction } | { ok: false; why: string } {
  const clock = clockOf(r.start_time_of_day);
  if (!clock) return { ok: false, why: `a restriction starts at ${JSON.stringify(r.start_time_of_day)}, not a time of day` };
  if (clock.seconds !== 0) return { ok: false, why: `a restriction starts at ${r.start_time_of_day}: Klaxon's windows start on the minute` };
  if (r.type === 'daily_restriction') {
    if (r.duration_seconds < 1 || r.duration_seconds > 86_400) return { ok: false, why: `a daily restriction lasts ${r.duration_seconds} s (1 s to a day)` };
    return { ok: true, value: { type: 'daily', start_time: clock.time, duration_seconds: r.duration_seconds } };
  }
  if (r.type === 'weekly_restriction') {
    const day = r.start_day_of_week;
    if (!day || day < 1 || day > 7) return { ok: false, why: `a weekly restriction starts on day ${String(day)} (1 to 7)` };
    if (r.duration_seconds < 1 || r.duration_seconds > 7 * 86_400)
      return { ok: false, why: `a weekly restriction lasts ${r.duration_seconds} s (1 s to a week)` };
    return { ok: true, value: { type: 'weekly', start_day: day, start_time: clock.time, duration_seconds: r.duration_seconds } };
  }
  return { ok: false, why: `a restriction of type ${JSON.stringify(r.type)}, which Klaxon does not know` };
}

/** One layer, or why it is left out; `notes` gather what is kept but differs. */
function layerOf(layer: PdLayer, position: number, s: PdSchedule, known: Set<string>, now: Date, skip: (why: string) => void): PlannedLayer | null {
  if (layer.end && Date.parse(layer.end) <= now.getTime()) {
    skip(`it ended at ${layer.end}`);
    return null;
  }
  const rotation = rotationOfSeconds(layer.rotation_turn_length_seconds);
  if (!rotation) {
    skip(`its turn length of ${layer.rotation_turn_length_seconds} s is not a whole number of hours (up to 1000 of them)`);
    return null;
  }
  const users = layer.users.map((u) => u.user.id);
  const unknown = users.filter((u) => !known.has(u));
  if (unknown.length) {
    skip(`users ${unknown.join(', ')} are not in PagerDuty's user list`);
    return null;
  }
  if (users.length === 0) {
    skip('it has nobody in it');
    return null;
  }
  const restrictions: PlannedRestriction[] = [];
  for (const r of layer.restrictions ?? []) {
    const mapped = restrictionOf(r);
    if (!mapped.ok) {
      skip(mapped.why);
      return null;
    }
    restrictions.push(mapped.value);
  }
  const tooBig = layerSizeRefusal(users, restrictions);
  if (tooBig) {
    skip(tooBig);
    return null;
  }
  const anchored = anchorRotation({ rotationStart: layer.rotation_virtual_start, layerStart: layer.start, zone: s.time_zone, rotation, users, now });
  if (!anchored.ok) {
    skip(anchored.why);
    return null;
  }
  if (anchored.note) skip(anchored.note);
  if (layer.end) skip(`it ends at ${layer.end}: Klaxon layers do not end, remove it in Klaxon then`);
  return {
    externalId: layer.id,
    name: layer.name?.trim() || `Layer ${position}`,
    users: anchored.users,
    rotation,
    handoff_time: anchored.handoff_time,
    start: anchored.start,
    ...(restrictions.length ? { restrictions } : {}),
  };
}

function scheduleOf(
  s: PdSchedule & { overrides: PagerDutyData['schedules'][number]['overrides'] },
  known: Set<string>,
  now: Date,
  skipped: Skipped[],
): PlannedSchedule | null {
  const skipSchedule = (why: string) => skipped.push({ kind: 'schedule', external_id: s.id, name: s.name, why });
  if (!IANAZone.isValidZone(s.time_zone)) {
    skipSchedule(`its time zone ${JSON.stringify(s.time_zone)} is not an IANA zone Klaxon knows`);
    return null;
  }
  // PagerDuty lists a schedule's layers highest first (the one that wins first); Klaxon wants
  // them lowest first, the last one winning.
  const lowestFirst = [...s.schedule_layers].reverse();
  const layers = lowestFirst.flatMap((layer, i) => {
    const name = layer.name?.trim() || `Layer ${i + 1}`;
    const skip = (why: string) => skipped.push({ kind: 'schedule', external_id: `${s.id}/${layer.id}`, name: `${s.name} / ${name}`, why });
    const mapped = layerOf(layer, i + 1, s, known, now, skip);
    return mapped ? [mapped] : [];
  });
  const kept = withinLayerLimit(layers, { externalId: s.id, name: s.name }, skipped);
  if (kept.length === 0) {
    skipSchedule('none of its layers could be brought in (each is listed with why)');
    return null;
  }
  const overrides = s.overrides.flatMap((o) => {
    if (Date.parse(o.end) <= now.getTime()) return [];
    if (!known.has(o.user.id)) {
      skipped.push({
        kind: 'schedule',
        external_id: `${s.id}/overrides/${o.id}`,
        name: `${s.name} / override`,
        why: `its user ${o.user.id} is not in PagerDuty's user list`,
      });
      return [];
    }
    return [{ externalId: o.id, user: o.user.id, from: o.start, to: o.end }];
  });
  return { externalId: s.id, name: s.name, timeZone: s.time_zone, layers: kept, overrides };
}

const TARGET_TYPES: Record<string, 'user' | 'schedule'> = { user_reference: 'user', user: 'user', schedule_reference: 'schedule', schedule: 'schedule' };

function policyOf(ep: PdEscalationPolicy, known: { users: Set<string>; schedules: Set<string> }, skipped: Skipped[]): PlannedPolicy | null {
  const skip = (external: string, name: string, why: string) => skipped.push({ kind: 'escalation_policy', external_id: external, name, why });
  const steps: PlannedPolicy['steps'] = [];
  ep.escalation_rules.forEach((rule, i) => {
    const ruleName = `${ep.name} / rule ${i + 1}`;
    const delaySeconds = rule.escalation_delay_in_minutes * 60;
    if (delaySeconds < 1 || delaySeconds > PAGING_LIMITS.maxDelaySeconds) {
      skip(`${ep.id}/${rule.id}`, ruleName, `its delay of ${rule.escalation_delay_in_minutes} minutes is outside Klaxon's 1 s to 24 h`);
      return;
    }
    const targets = rule.targets.flatMap((t) => {
      const type = TARGET_TYPES[t.type];
      if (!type) {
        skip(`${ep.id}/${rule.id}/${t.id}`, ruleName, `a target of type ${t.type}, which Klaxon cannot page`);
        return [];
      }
      if (!(type === 'user' ? known.users : known.schedules).has(t.id)) {
        skip(`${ep.id}/${rule.id}/${t.id}`, ruleName, `its ${type} ${t.id} was not brought in (see its own entry, if PagerDuty listed it)`);
        return [];
      }
      return [{ type, externalId: t.id }];
    });
    if (targets.length > PAGING_LIMITS.maxTargetsPerStep) {
      skip(`${ep.id}/${rule.id}`, ruleName, `it has ${targets.length} targets, more than Klaxon's ${PAGING_LIMITS.maxTargetsPerStep}`);
      return;
    }
    if (targets.length === 0) {
      skip(`${ep.id}/${rule.id}`, ruleName, 'none of its targets could be brought in');
      return;
    }
    steps.push({ delaySeconds, targets });
  });
  if (steps.length > PAGING_LIMITS.maxSteps) {
    skip(
      ep.id,
      ep.name,
      `it has ${steps.length} rules, more than Klaxon's ${PAGING_LIMITS.maxSteps}: the rules after the ${PAGING_LIMITS.maxSteps}th are left out`,
    );
    steps.length = PAGING_LIMITS.maxSteps;
  }
  if (steps.length === 0) {
    skip(ep.id, ep.name, 'none of its rules could be brought in (each is listed with why)');
    return null;
  }
  let repeat = ep.num_loops ?? 0;
  if (repeat > PAGING_LIMITS.maxRepeat) {
    skip(ep.id, ep.name, `it loops ${repeat} times: Klaxon repeats a policy at most ${PAGING_LIMITS.maxRepeat} times`);
    repeat = PAGING_LIMITS.maxRepeat;
  }
  return { externalId: ep.id, name: ep.name, steps, repeat: Math.max(0, repeat) };
}

function sourcesOf(svc: PdService, skipped: Skipped[]): PlannedSource[] {
  return (svc.integrations ?? []).flatMap((integration) => {
    const name = integration.name?.trim() || integration.summary?.trim() || integration.type;
    const skip = (why: string) => {
      skipped.push({ kind: 'source', external_id: integration.id, name: `${svc.name} / ${name}`, why });
      return [];
    };
    const type = integration.type.replace(/_reference$/, '');
    if (type !== EVENTS_V2_INTEGRATION) {
      return skip(`a ${type}: only Events API v2 integrations keep working by their key; point that sender at a Klaxon source`);
    }
    const key = integration.integration_key ? normaliseRoutingKey(integration.integration_key) : undefined;
    if (!key) return skip('PagerDuty did not give a 32-character integration key for it');
    return [{ externalId: integration.id, name, service: svc.id, routingKey: key }];
  });
}

/** PagerDuty's contact method types Klaxon pages on, by channel. */
const CONTACT_TYPES: Record<string, PlannedContactMethod['type']> = {
  phone_contact_method: 'voice',
  sms_contact_method: 'sms',
  email_contact_method: 'email',
};

/** A person's contact methods and high-urgency rules (docs/importers.md, "Contact methods and rules"). */
function contactsOf(u: PdUser, skipped: Skipped[]): { methods: PlannedContactMethod[]; rules: PlannedNotificationRule[] } {
  const methods: PlannedContactMethod[] = [];
  for (const cm of u.contact_methods ?? []) {
    const external = `${u.id}/${cm.id}`;
    const name = `${u.name} / ${cm.label?.trim() || cm.summary?.trim() || cm.type.replace(/_contact_method(_reference)?$/, '')}`;
    const skip = (why: string) => skipped.push({ kind: 'contact_method', external_id: external, name, why });
    const type = CONTACT_TYPES[cm.type];
    if (cm.type === 'push_notification_contact_method') {
      skip("a push to PagerDuty's mobile app: Klaxon pushes to its own app or browser instead (My profile → Enable push on this device)");
      continue;
    }
    if (!type) {
      skip(`a contact method of type ${cm.type}, which Klaxon cannot page`);
      continue;
    }
    if (cm.blacklisted) {
      skip('PagerDuty has blacklisted it (the carrier refused it): it is left out');
      continue;
    }
    if (cm.enabled === false) {
      skip('it is disabled in PagerDuty');
      continue;
    }
    const raw = type === 'email' ? (cm.address ?? '') : phoneOf(cm.country_code, cm.address ?? '');
    const address = contactAddress(type, raw);
    if (!address.ok) {
      skip(address.why);
      continue;
    }
    methods.push({ externalId: external, user: u.id, type, address: address.address, label: cm.label?.trim().slice(0, 255) || null });
  }
  const byId = new Map(methods.map((m) => [m.externalId, m]));
  const rules: PlannedNotificationRule[] = [];
  for (const r of u.notification_rules ?? []) {
    const external = `${u.id}/${r.id}`;
    const skip = (why: string) => skipped.push({ kind: 'notification_rule', external_id: external, name: `${u.name} / rule`, why });
    if ((r.urgency ?? 'high') !== 'high') {
      skip(`a ${r.urgency}-urgency rule: Klaxon pages every incident as PagerDuty pages high-urgency ones, so only those rules come`);
      continue;
    }
    const method = r.contact_method ? byId.get(`${u.id}/${r.contact_method.id}`) : undefined;
    if (!method) {
      skip(`its contact method ${r.contact_method?.id ?? '(none)'} was not brought in (see its own entry)`);
      continue;
    }
    const delay = ruleDelayOf(r.start_delay_in_minutes);
    if (!delay.ok) {
      skip(delay.why);
      continue;
    }
    rules.push({ externalId: external, user: u.id, contactMethod: method.externalId, delaySeconds: delay.seconds });
  }
  return { methods, rules };
}

/** The whole plan for one PagerDuty account at `now`. */
export function mapPagerDuty(data: PagerDutyData, opts: { now: Date }): ImportPlan {
  const skipped: Skipped[] = [];
  // Team roles: a user who manages a team is a Team Manager.
  const teamRoles = new Map<string, string[]>();
  for (const t of data.teams) for (const m of t.members) if (m.role) teamRoles.set(m.user.id, [...(teamRoles.get(m.user.id) ?? []), m.role]);
  const contactMethods: PlannedContactMethod[] = [];
  const notificationRules: PlannedNotificationRule[] = [];
  const users = data.users.flatMap((u) => {
    const email = u.email.trim().toLowerCase();
    if (!EMAIL.test(email)) {
      skipped.push({ kind: 'user', external_id: u.id, name: u.name, why: 'it has no email address, and people are matched by email' });
      return [];
    }
    const { role, note } = pagerDutyRole(u.role, teamRoles.get(u.id) ?? []);
    if (note) skipped.push({ kind: 'user', external_id: u.id, name: u.name, why: note });
    const contacts = contactsOf(u, skipped);
    contactMethods.push(...contacts.methods);
    notificationRules.push(...contacts.rules);
    return [{ externalId: u.id, name: u.name, email, role }];
  });
  const userIds = new Set(users.map((u) => u.externalId));
  const teams = data.teams.map((t) => ({ externalId: t.id, name: t.name, members: t.members.map((m) => m.user.id).filter((id) => userIds.has(id)) }));
  const teamIds = new Set(teams.map((t) => t.externalId));
  const schedules = data.schedules.flatMap((s) => scheduleOf(s, userIds, opts.now, skipped) ?? []);
  const scheduleIds = new Set(schedules.map((s) => s.externalId));
  const policies = data.escalationPolicies.flatMap((ep) => policyOf(ep, { users: userIds, schedules: scheduleIds }, skipped) ?? []);
  const policyIds = new Set(policies.map((p) => p.externalId));
  const policyTeams = new Map(data.escalationPolicies.map((ep) => [ep.id, (ep.teams ?? []).map((t) => t.id)]));
  const services: PlannedService[] = data.services.map((svc) => {
    const policy = svc.escalation_policy && policyIds.has(svc.escalation_policy.id) ? svc.escalation_policy.id : null;
    // A PagerDuty service may have no team; its policy's team owns it then, else the workspace's first.
    const team = [...(svc.teams ?? []).map((t) => t.id), ...(policyTeams.get(svc.escalation_policy?.id ?? '') ?? [])].find((id) => teamIds.has(id)) ?? null;
    return { externalId: svc.id, name: svc.name, description: svc.description?.trim() || null, policy, team };
  });
  const sources = data.services.flatMap((svc) => sourcesOf(svc, skipped));
  return { system: 'pagerduty', users, contactMethods, notificationRules, teams, schedules, policies, services, sources, skipped };
}
