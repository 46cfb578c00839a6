import { useApiQuery, useSession } from '../api/hooks';
import { personLabel } from '../components/people';
import type { Member } from './types';

/** Who is who on the schedule pages: members by id, and who may change schedules. */

/** The workspace's members (GET /members), and a lookup by id that names them. */
export function useMembers() {
  const query = useApiQuery<Member[]>(['members'], '/members');
  const byId = new Map((query.data ?? []).map((m) => [m.id, m]));
  return { ...query, byId, label: (id: string, email?: string) => personLabel(byId.get(id) ?? (email ? { email } : undefined)) };
}

/** Billing Owners and Account Admins change schedules (escalation.manage); everyone else reads. */
export function useCanManageSchedules(): boolean {
  const role = useSession().data?.role;
  return role === 'BILLING_OWNER' || role === 'ACCOUNT_ADMIN';
}
