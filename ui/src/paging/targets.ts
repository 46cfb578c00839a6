import { personLabel, personPickerLabel } from '../components/people';
import type { NameOf, Target, TargetType } from './policy-form';

/** Who and what a policy step can page: the workspace's members, schedules and teams. */
export interface Directory {
  users: Array<{ id: string; email: string; name: string | null }>;
  schedules: Array<{ id: string; name: string }>;
  teams: Array<{ id: string; name: string }>;
}

const KIND: Record<TargetType, string> = { user: 'person', schedule: 'schedule', team: 'team' };
const GROUPS: Array<[TargetType, string]> = [
  ['user', 'People'],
  ['schedule', 'Schedules'],
  ['team', 'Teams'],
];

/** One select value per target: `user:<id>`. */
export const targetValue = (t: Target): string => `${t.type}:${t.id}`;
export const targetFromValue = (value: string): Target => {
  const at = value.indexOf(':');
  return { type: value.slice(0, at) as TargetType, id: value.slice(at + 1) };
};

/** Pickers tell people apart by email; summaries say "Ada", "schedule Primary", "team Ops". */
function labels(directory: Directory, short: boolean): Map<string, string> {
  const kind = (type: TargetType, name: string) => (short ? `${KIND[type]} ${name}` : name);
  return new Map([
    ...directory.users.map((u) => [targetValue({ type: 'user', id: u.id }), short ? personLabel(u) : personPickerLabel(u)] as const),
    ...directory.schedules.map((s) => [targetValue({ type: 'schedule', id: s.id }), kind('schedule', s.name)] as const),
    ...directory.teams.map((t) => [targetValue({ type: 'team', id: t.id }), kind('team', t.name)] as const),
  ]);
}

/** Names targets for people; one no longer in the directory (deleted, or not loaded) by its kind and id. */
export function targetNamer(directory: Directory, opts: { short?: boolean } = {}): NameOf {
  const known = labels(directory, opts.short ?? false);
  return (t) => known.get(targetValue(t)) ?? `${KIND[t.type]} ${t.id.slice(0, 8)}`;
}

/**
 * The grouped options of a step's target picker. Targets already chosen but not in the directory
 * are offered too, so editing a policy never drops them without the user seeing it.
 */
export function targetOptions(directory: Directory, chosen: Target[]) {
  const nameOf = targetNamer(directory);
  const all: Target[] = [
    ...directory.users.map((u) => ({ type: 'user' as const, id: u.id })),
    ...directory.schedules.map((s) => ({ type: 'schedule' as const, id: s.id })),
    ...directory.teams.map((t) => ({ type: 'team' as const, id: t.id })),
  ];
  const seen = new Set(all.map(targetValue));
  const targets = [...all, ...chosen.filter((t) => !seen.has(targetValue(t)))];
  return GROUPS.map(([type, group]) => ({
    group,
    items: targets.filter((t) => t.type === type).map((t) => ({ value: targetValue(t), label: nameOf(t) })),
  })).filter((g) => g.items.length > 0);
}
