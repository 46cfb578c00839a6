/** GET /api/readiness (docs/readiness.md): the gaps of the next 14 days, and how each is fixed. */
export interface ReadinessGap {
  kind:
    'no_working_contact' | 'rules_too_slow' | 'failed_in_drill' | 'schedule_gap' | 'step_resolves_to_nobody' | 'imported_unconfirmed' | 'invited_not_member';
  user_id?: string;
  schedule_id?: string;
  policy_id?: string;
  from: string;
  to: string;
  detail: string;
}

export interface Readiness {
  from: string;
  to: string;
  gaps: ReadinessGap[];
}

export const GAP_TITLES: Record<ReadinessGap['kind'], string> = {
  no_working_contact: 'Cannot be reached',
  rules_too_slow: 'Paged too late',
  failed_in_drill: 'Failed in the last drill',
  schedule_gap: 'Nobody on call',
  step_resolves_to_nobody: 'Step pages nobody',
  imported_unconfirmed: 'Imported, not yet confirmed in Klaxon',
  invited_not_member: 'Invited, not a member yet',
};

/** Where a gap is fixed: a link and what to do there. `me`: the signed-in person's id. */
export function fixOf(gap: ReadinessGap, me: string | undefined): { to: string; label: string } {
  if ((gap.kind === 'no_working_contact' || gap.kind === 'rules_too_slow' || gap.kind === 'failed_in_drill') && gap.user_id) {
    const what = gap.kind === 'rules_too_slow' ? 'a notification rule that pages within 5 minutes' : 'a verified contact method and a rule';
    if (gap.user_id === me) return { to: '/profile', label: `Add ${what} in your profile` };
    if (gap.schedule_id) return { to: `/schedules/${gap.schedule_id}`, label: `Ask them to add ${what} in their profile, or cover the shift with an override` };
    return { to: '/escalation-policies', label: `Ask them to add ${what} in their profile, or page someone else` };
  }
  if (gap.kind === 'imported_unconfirmed') return { to: '/drills', label: 'Send a test page (Paging drills) to confirm the numbers reach them' };
  if (gap.kind === 'invited_not_member') return { to: '/settings/import', label: 'Once they accept the invitation, import again' };
  if (gap.kind === 'schedule_gap' && gap.schedule_id) return { to: `/schedules/${gap.schedule_id}`, label: 'Add a layer or an override that covers it' };
  return { to: '/escalation-policies', label: 'Give the step a target with someone on call' };
}

/** "Mon 30 Nov 14:00 → Tue 1 Dec 09:00", in the viewer's zone. */
export function formatStretch(gap: Pick<ReadinessGap, 'from' | 'to'>, timeZone?: string): string {
  const f = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone });
  return `${f.format(new Date(gap.from))} → ${f.format(new Date(gap.to))}`;
}
