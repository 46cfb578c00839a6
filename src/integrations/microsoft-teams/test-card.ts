import type { MikroORM } from '@mikro-orm/postgresql';
import { testCard } from './card';
import type { Sealer } from '../../services/sealing/seal';
import { conflict } from '../../services/errors';
import { postJson } from '../../services/targets';
import { getServiceChat } from '../../services/chat/service-chat';

/** How long the dashboard's test card may take: the member is waiting. */
export const TEAMS_TEST_TIMEOUT_MS = 5_000;

export interface TeamsTestDeps {
  orm: MikroORM;
  sealer: Sealer;
  appUrl: string;
  /** ALLOW_PRIVATE_TARGETS, for the shared SSRF guard. */
  allowPrivate: boolean;
}

/** How the test card went; `error` never names the URL. */
export interface TeamsTestResult {
  delivered: boolean;
  status_code: number | null;
  error: string | null;
}

/**
 * Posts a test card to a service's Teams URL now, through the SSRF guard, within
 * TEAMS_TEST_TIMEOUT_MS (`POST /api/services/{id}/chat/teams/test`). 409 `teams_not_configured`
 * when the service has none. Checking the member and the plan is the caller's; `admit` throws to
 * refuse (the test-send throttle) once there is a URL to post to.
 */
export async function sendTeamsTestCard(
  deps: TeamsTestDeps,
  service: { id: string; name: string },
  opts: { admit?: () => Promise<void> } = {},
): Promise<TeamsTestResult> {
  const { teamsWebhookUrl } = await getServiceChat(deps.orm, deps.sealer, service.id);
  if (!teamsWebhookUrl) throw conflict('the service has no Microsoft Teams webhook URL: set one first', 'teams_not_configured');
  await opts.admit?.();
  const body = JSON.stringify(testCard({ serviceName: service.name, appUrl: deps.appUrl, at: new Date().toISOString() }));
  const res = await postJson(teamsWebhookUrl, {
    headers: { 'User-Agent': 'Klaxon-Teams/1' },
    body,
    timeoutMs: TEAMS_TEST_TIMEOUT_MS,
    allowPrivate: deps.allowPrivate,
  });
  const delivered = res.status !== null && res.status >= 200 && res.status < 300;
  return { delivered, status_code: res.status, error: delivered ? null : (res.error ?? `answered ${res.status}`) };
}
