/**
 * Answers on a `response_url` (docs/chat.md): Slack's hooks.slack.com over HTTPS only, or the
 * origin of SLACK_API_URL when that points elsewhere (the test fake). Any other URL a payload
 * carries is never called: the payload is signed by Slack, but a URL is still not ours to trust.
 * Posted through the bounded client (src/services/outbound) as a fixed host.
 */
import { outboundRequest } from '../../services/outbound';

export const SLACK_HOOKS_HOST = 'hooks.slack.com';
const DEFAULT_API_ORIGIN = 'https://slack.com';

/** The URL when Klaxon may post to it, else undefined. */
export function allowedResponseUrl(raw: string | undefined, apiUrl: string): URL | undefined {
  if (!raw || raw.length > 2000) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  if (url.protocol === 'https:' && url.hostname === SLACK_HOOKS_HOST && (url.port === '' || url.port === '443')) return url;
  const api = new URL(apiUrl);
  return api.origin !== DEFAULT_API_ORIGIN && url.origin === api.origin ? url : undefined;
}

/** An ephemeral answer only the clicking user sees; the message itself stays. */
export const ephemeral = (text: string) => ({ response_type: 'ephemeral' as const, replace_original: false, text });

/** Posts an answer to a response_url (5 s, no redirect followed); false when the URL is not allowed or the post failed. */
export async function postToResponseUrl(raw: string | undefined, apiUrl: string, body: object): Promise<boolean> {
  const url = allowedResponseUrl(raw, apiUrl);
  if (!url) return false;
  try {
    // Only the status counts: the answer is read to 4 KiB at most, the rest never.
    const res = await outboundRequest(url, {
      target: 'fixed',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      deadlineMs: 5_000,
      maxBytes: 4096,
      overflow: 'truncate',
    });
    return res.status >= 200 && res.status < 300;
  } catch {
    return false;
  }
}
