import type { QueryClient } from '@tanstack/react-query';
import { setCsrfToken } from '../api/client';
import type { SessionView } from '../api/types';

/**
 * Confirming two-factor and changing the password rotate the session: the server set a new
 * cookie and the old CSRF value is refused from now on, so the answer's one replaces it.
 */
export function adoptRotatedSession(client: QueryClient, view: SessionView): void {
  setCsrfToken(view.csrf_token);
  client.setQueryData<SessionView>(['session'], { user: view.user, organization: view.organization, role: view.role, csrf_token: view.csrf_token });
}
