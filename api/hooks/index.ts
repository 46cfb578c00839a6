/**
 * The app listener's `/hooks/*`: answers to pages. Klaxon's own signed links (email links, push
 * actions) are here; every other route is a provider's, mounted from the provider registry
 * (src/integrations/registry.ts), so adding a provider never touches this file.
 */
import type Router from '@koa/router';
import { providerHooks } from '../../src/integrations/wiring';
import type { ProviderHookDeps } from '../../src/integrations/types';
import { sessionCookieOf } from '../dashboard/cookies';
import { createPageActionsRouter } from './page-actions';

/** Every hooks router, in mounting order. */
export function createHooksRouters(deps: ProviderHookDeps): Router[] {
  // The dashboard's session cookie, for a provider whose callback a signed-in browser makes (Slack's install).
  return [...providerHooks({ ...deps, sessionCookieOf }), createPageActionsRouter(deps)];
}
