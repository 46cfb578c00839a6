/**
 * The one way Klaxon talks to Slack: `@slack/web-api`'s WebClient, pointed at SLACK_API_URL
 * (the test fake in tests). Short timeout and few retries: Slack calls run off the paging path,
 * and the chat feed consumer retries on its own schedule (docs/chat.md). Its requests go through
 * the bounded client (its `fetch` option; src/services/outbound): Slack's API is a fixed host.
 */
import { LogLevel, WebClient, type FetchFunction, type WebAPICallError } from '@slack/web-api';
import { outboundFetch } from '../../services/outbound';

/** How long one Web API request may take. */
export const SLACK_TIMEOUT_MS = 3_000;
/** How much of one answer is read: a page of 200 channels (conversations.list) runs to a few hundred KiB. */
export const SLACK_MAX_ANSWER_BYTES = 1024 * 1024;

/** Every WebClient's transport: one bounded client for the process, kept-alive connections to Slack. */
// A real Response; the library's type spells out the few members it reads.
const slackFetch = outboundFetch({
  target: 'fixed',
  keepAlive: true,
  deadlineMs: SLACK_TIMEOUT_MS,
  maxBytes: SLACK_MAX_ANSWER_BYTES,
}) as unknown as FetchFunction;

/** A Web API client for one bot token (or none: `oauth.v2.access` authenticates with the app's client id and secret). */
export function slackClient(apiUrl: string, token?: string): WebClient {
  return new WebClient(token, {
    slackApiUrl: apiUrl,
    timeout: SLACK_TIMEOUT_MS,
    fetch: slackFetch,
    retryConfig: { retries: 2, factor: 2, minTimeout: 100, maxTimeout: 1_000 },
    rejectRateLimitedCalls: false,
    // Klaxon's own logs say what failed; the client's info and warn lines would repeat it on stdout.
    logLevel: LogLevel.ERROR,
    allowAbsoluteUrls: false,
  });
}

/** Slack's error code from a failed call (`channel_not_found`, `invalid_auth`, …), or the transport's. */
export function slackErrorCode(err: unknown): string {
  const e = err as Partial<WebAPICallError> & { data?: { error?: string }; message?: string };
  if (e?.data?.error) return e.data.error;
  if (e?.code) return String(e.code);
  return err instanceof Error ? err.message.slice(0, 200) : 'unknown_error';
}

/**
 * Errors that a retry will not fix: the token was revoked, the bot left the channel, the channel
 * is gone. A delivery that meets one parks at once instead of retrying for days.
 */
export const PERMANENT_SLACK_ERRORS: readonly string[] = [
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'not_authed',
  'channel_not_found',
  'is_archived',
  'not_in_channel',
  'user_not_found',
  'missing_scope',
];
const PERMANENT = new Set(PERMANENT_SLACK_ERRORS);
export const isPermanentSlackError = (code: string): boolean => PERMANENT.has(code);
