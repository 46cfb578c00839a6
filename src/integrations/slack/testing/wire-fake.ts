import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { close, listen, readBody } from '../../testing/http-util';

/**
 * Slack's Web API at the wire, for the real `@slack/web-api` client (pointed here with
 * `SLACK_API_URL`): POST /api/{method} with a form-encoded (or JSON) body and
 * `Authorization: Bearer xoxb-…`, answered `{ok: true, …}` or `{ok: false, error}` as Slack does.
 * It also serves the OAuth v2 authorize page (GET /oauth/v2/authorize), which approves at once
 * and redirects back with a code, so a browser test can connect a workspace.
 *
 * Methods: oauth.v2.access, auth.test, chat.postMessage, chat.update, chat.postEphemeral,
 * users.info, users.lookupByEmail, conversations.list, conversations.open, conversations.info.
 * Response URLs (`responseUrl()`) take what Klaxon answers to interactions and slash commands.
 */

export interface FakeSlackUser {
  id: string;
  email: string;
  name?: string;
  /** `user.team_id`: the Slack workspace the person belongs to (default: the fake's `teamId`). */
  teamId?: string;
  /** `user.is_email_confirmed` (default true). */
  emailConfirmed?: boolean;
}

export interface FakeSlackChannel {
  id: string;
  name: string;
  is_private?: boolean;
  is_archived?: boolean;
}

/** A message as posted and then updated: its thread replies are messages with `thread_ts`. */
export interface FakeSlackMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  blocks?: unknown[];
  /** Every version, oldest first (chat.update adds one). */
  versions: { text: string; blocks?: unknown[] }[];
}

/** What the fake saw of one call. */
export interface SlackCall {
  method: string;
  args: Record<string, unknown>;
  token: string | undefined;
  at: number;
}

export class SlackApiFake {
  readonly teamId = 'T0KLAXON1';
  readonly teamName = 'Klaxon Test Workspace';
  readonly botUserId = 'U0BOT0001';
  readonly clientId = '1111.2222';
  readonly clientSecret = `secret-${randomBytes(8).toString('hex')}`;
  readonly signingSecret = `signing-${randomBytes(16).toString('hex')}`;
  /** The bot token the next `oauth.v2.access` hands out (valid until revoked). */
  readonly botToken = `xoxb-${randomBytes(12).toString('hex')}`;
  readonly users: FakeSlackUser[] = [];
  readonly channels: FakeSlackChannel[] = [
    { id: 'C0ALERTS01', name: 'alerts' },
    { id: 'C0OPS00002', name: 'ops' },
    { id: 'C0SECRET03', name: 'secret-ops', is_private: true },
  ];
  readonly messages: FakeSlackMessage[] = [];
  readonly calls: SlackCall[] = [];
  /** What Klaxon posted to response URLs this fake handed out (`responseUrl()`), oldest first. */
  readonly responses: Array<{ path: string; body: Record<string, unknown> }> = [];
  /** Valid tokens; `revoke` empties it. */
  readonly tokens = new Set<string>();
  /** While set, every Web API call answers this HTTP status (Slack down: 503). */
  down: number | undefined;
  /** Errors for the next calls of a method (`{ 'chat.postMessage': ['channel_not_found'] }`). */
  readonly errors: Record<string, string[]> = {};
  /** Codes `oauth.v2.access` accepts, with the redirect URI they were issued for. */
  private readonly codes = new Map<string, string>();
  private seq = 0;
  private readonly server = http.createServer((req, res) => void this.handle(req, res));
  url = '';

  /** The Web API base URL, for SLACK_API_URL. */
  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  /** The authorize page, for SLACK_AUTHORIZE_URL. */
  get authorizeUrl(): string {
    return `${this.url}/oauth/v2/authorize`;
  }

  /** The variables that point Klaxon at this fake. */
  env(): Record<string, string> {
    return {
      SLACK_CLIENT_ID: this.clientId,
      SLACK_CLIENT_SECRET: this.clientSecret,
      SLACK_SIGNING_SECRET: this.signingSecret,
      SLACK_API_URL: this.apiUrl,
      SLACK_AUTHORIZE_URL: this.authorizeUrl,
    };
  }

  async start(): Promise<this> {
    this.url = `http://127.0.0.1:${await listen(this.server)}`;
    return this;
  }

  stop(): Promise<void> {
    return close(this.server);
  }

  /** A code as Slack's authorize page would hand the redirect (tests that skip the browser). */
  issueCode(redirectUri: string): string {
    const code = `code-${randomBytes(8).toString('hex')}`;
    this.codes.set(code, redirectUri);
    return code;
  }

  /** A response_url as an interaction or a slash command carries: answers posted to it land in `responses`. */
  responseUrl(): string {
    return `${this.url}/response/${randomBytes(8).toString('hex')}`;
  }

  /** What was posted to one response URL. */
  responsesTo(responseUrl: string): Array<Record<string, unknown>> {
    const path = new URL(responseUrl).pathname;
    return this.responses.filter((r) => r.path === path).map((r) => r.body);
  }

  /** Makes the bot token invalid (the app uninstalled in Slack). */
  revoke(): void {
    this.tokens.clear();
  }

  addUser(user: FakeSlackUser): FakeSlackUser {
    this.users.push(user);
    return user;
  }

  callsOf(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Top-level messages in a channel (not thread replies), oldest first. */
  postsIn(channel: string): FakeSlackMessage[] {
    return this.messages.filter((m) => m.channel === channel && !m.thread_ts);
  }

  /** Replies in a message's thread, oldest first. */
  repliesTo(message: Pick<FakeSlackMessage, 'channel' | 'ts'>): FakeSlackMessage[] {
    return this.messages.filter((m) => m.channel === message.channel && m.thread_ts === message.ts);
  }

  private nextTs(): string {
    this.seq += 1;
    return `${Math.floor(Date.now() / 1000)}.${String(this.seq).padStart(6, '0')}`;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'GET' && url.pathname === '/oauth/v2/authorize') return this.authorize(url, res);
    if (req.method === 'POST' && url.pathname.startsWith('/response/')) {
      const raw = await readBody(req);
      this.responses.push({ path: url.pathname, body: parseArgs(raw, req.headers['content-type'] ?? '') });
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      return;
    }
    const match = /^\/api\/([\w.]+)$/.exec(url.pathname);
    if (req.method !== 'POST' || !match) {
      res.writeHead(404).end();
      return;
    }
    const raw = await readBody(req);
    const args = parseArgs(raw, req.headers['content-type'] ?? '');
    const auth = req.headers.authorization;
    const token = auth?.startsWith('Bearer ') ? auth.slice(7) : typeof args.token === 'string' ? args.token : undefined;
    const method = match[1];
    this.calls.push({ method, args, token, at: Date.now() });
    if (this.down !== undefined) {
      res.writeHead(this.down, { 'Content-Type': 'text/plain' }).end('Slack is having trouble');
      return;
    }
    const queued = this.errors[method]?.shift();
    const answer = queued ? { ok: false, error: queued } : this.answer(method, args, token);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(answer));
  }

  private authorize(url: URL, res: http.ServerResponse): void {
    const redirect = url.searchParams.get('redirect_uri');
    if (url.searchParams.get('client_id') !== this.clientId || !redirect) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('invalid client_id or redirect_uri');
      return;
    }
    const back = new URL(redirect);
    back.searchParams.set('code', this.issueCode(redirect));
    back.searchParams.set('state', url.searchParams.get('state') ?? '');
    res.writeHead(302, { Location: back.toString() }).end();
  }

  private answer(method: string, args: Record<string, unknown>, token: string | undefined): Record<string, unknown> {
    if (method === 'oauth.v2.access') return this.oauthAccess(args);
    if (!token || !this.tokens.has(token)) return { ok: false, error: token ? 'invalid_auth' : 'not_authed' };
    switch (method) {
      case 'auth.test':
        return { ok: true, team_id: this.teamId, team: this.teamName, user_id: this.botUserId, bot_id: 'B0BOT0001' };
      case 'chat.postMessage':
        return this.post(args);
      case 'chat.update':
        return this.update(args);
      case 'chat.postEphemeral':
        return { ok: true, message_ts: this.nextTs() };
      case 'users.info': {
        const user = this.users.find((u) => u.id === args.user);
        return user ? { ok: true, user: userJson(user, this.teamId) } : { ok: false, error: 'user_not_found' };
      }
      case 'users.lookupByEmail': {
        const email = String(args.email ?? '').toLowerCase();
        const user = this.users.find((u) => u.email.toLowerCase() === email);
        return user ? { ok: true, user: userJson(user, this.teamId) } : { ok: false, error: 'users_not_found' };
      }
      case 'conversations.list':
        return this.list(args);
      case 'conversations.info': {
        const channel = this.channels.find((c) => c.id === args.channel);
        return channel ? { ok: true, channel: channelJson(channel) } : { ok: false, error: 'channel_not_found' };
      }
      case 'conversations.open': {
        const user = this.users.find((u) => u.id === args.users);
        return user ? { ok: true, channel: { id: `D${user.id.slice(1)}` } } : { ok: false, error: 'user_not_found' };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  private oauthAccess(args: Record<string, unknown>): Record<string, unknown> {
    if (args.client_id !== this.clientId || args.client_secret !== this.clientSecret) return { ok: false, error: 'invalid_client_id' };
    const code = String(args.code ?? '');
    const redirect = this.codes.get(code);
    if (redirect === undefined) return { ok: false, error: 'invalid_code' };
    this.codes.delete(code);
    if (args.redirect_uri !== undefined && args.redirect_uri !== redirect) return { ok: false, error: 'bad_redirect_uri' };
    this.tokens.add(this.botToken);
    return {
      ok: true,
      app_id: 'A0KLAXON1',
      authed_user: { id: 'U0INSTALL1' },
      scope: 'chat:write,commands,channels:read,groups:read,users:read,users:read.email,im:write',
      token_type: 'bot',
      access_token: this.botToken,
      bot_user_id: this.botUserId,
      team: { id: this.teamId, name: this.teamName },
      enterprise: null,
      is_enterprise_install: false,
    };
  }

  private post(args: Record<string, unknown>): Record<string, unknown> {
    const channel = String(args.channel ?? '');
    const known = this.channels.some((c) => c.id === channel) || channel.startsWith('D');
    if (!known) return { ok: false, error: 'channel_not_found' };
    const text = String(args.text ?? '');
    const blocks = parseBlocks(args.blocks);
    const message: FakeSlackMessage = { channel, ts: this.nextTs(), text, blocks, versions: [{ text, blocks }] };
    if (typeof args.thread_ts === 'string' && args.thread_ts) message.thread_ts = args.thread_ts;
    this.messages.push(message);
    return { ok: true, channel, ts: message.ts, message: { text, blocks, ts: message.ts } };
  }

  private update(args: Record<string, unknown>): Record<string, unknown> {
    const message = this.messages.find((m) => m.channel === args.channel && m.ts === args.ts);
    if (!message) return { ok: false, error: 'message_not_found' };
    message.text = String(args.text ?? message.text);
    message.blocks = parseBlocks(args.blocks) ?? message.blocks;
    message.versions.push({ text: message.text, blocks: message.blocks });
    return { ok: true, channel: message.channel, ts: message.ts, text: message.text };
  }

  /** conversations.list, paged by `cursor` two at a time so the client's pagination is exercised. */
  private list(args: Record<string, unknown>): Record<string, unknown> {
    const types = String(args.types ?? 'public_channel').split(',');
    const visible = this.channels.filter(
      (c) => (c.is_private ? types.includes('private_channel') : types.includes('public_channel')) && !(args.exclude_archived && c.is_archived),
    );
    const start = Number(args.cursor ?? 0) || 0;
    const limit = Math.min(Number(args.limit ?? 100) || 100, 2);
    const page = visible.slice(start, start + limit);
    const next = start + limit < visible.length ? String(start + limit) : '';
    return { ok: true, channels: page.map(channelJson), response_metadata: { next_cursor: next } };
  }
}

function parseArgs(raw: string, contentType: string): Record<string, unknown> {
  if (contentType.includes('application/json')) {
    try {
      return JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

/** The client sends `blocks` JSON-encoded inside a form field. */
function parseBlocks(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string' || !value) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const userJson = (u: FakeSlackUser, teamId: string) => ({
  id: u.id,
  team_id: u.teamId ?? teamId,
  is_email_confirmed: u.emailConfirmed !== false,
  name: u.name ?? u.email.split('@')[0],
  real_name: u.name ?? u.email,
  deleted: false,
  is_bot: false,
  profile: { email: u.email, real_name: u.name ?? u.email, display_name: u.name ?? '' },
});

const channelJson = (c: FakeSlackChannel) => ({
  id: c.id,
  name: c.name,
  is_channel: true,
  is_private: c.is_private === true,
  is_archived: c.is_archived === true,
  is_member: true,
});
