import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';

/** Two-factor (TOTP) enrolment, recovery codes and step-up under /api. */
export function securityRoutes(_deps: AdminDeps): RouteSpec[] {
  return [];
}
