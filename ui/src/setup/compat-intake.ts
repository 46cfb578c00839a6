/**
 * Where a PagerDuty or Opsgenie sender points to reach a source (docs/compat-intake.md): its
 * ingestion URL with the provider's path. (The listener's root takes the same requests, the
 * routing key alone naming the source; the README says so.)
 */
export interface CompatUrls {
  /** PagerDuty Events API v2: `{ingest_url}/v2/enqueue`. */
  pagerDuty: string;
  /** Opsgenie's API URL (senders append `v2/alerts`): `{ingest_url}/`. */
  opsgenie: string;
}

/** The compat URLs of a source's ingestion URL; null when it has none to show (rotate it). */
export function compatUrls(webhookUrl: string | null): CompatUrls | null {
  if (!webhookUrl || !URL.canParse(webhookUrl)) return null;
  const base = webhookUrl.endsWith('/') ? webhookUrl.slice(0, -1) : webhookUrl;
  return { pagerDuty: `${base}/v2/enqueue`, opsgenie: `${base}/` };
}
