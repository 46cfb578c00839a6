import http from 'node:http';
import https from 'node:https';

/** One answer as the test browser saw it. */
export interface BrowserResponse {
  status: number;
  location: string | null;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A browser without a screen for single sign-on tests: keeps each origin's cookies, trusts the
 * test IdP's certificate, never follows a redirect by itself (the test walks them), and fills in
 * oidc-provider's development login form.
 */
export class TestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  constructor(private readonly ca: string) {}

  /** The value of a cookie this browser holds for an origin. */
  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name);
  }

  /** Forgets every cookie of an origin (a new session at an IdP). */
  forget(origin: string): void {
    this.jars.delete(origin);
  }

  /** Forgets one cookie (a test of another browser's cookie). */
  setCookie(origin: string, name: string, value: string | undefined): void {
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    if (value === undefined) jar.delete(name);
    else jar.set(name, value);
    this.jars.set(origin, jar);
  }

  request(method: string, url: string, form?: Record<string, string>, extraHeaders: Record<string, string> = {}): Promise<BrowserResponse> {
    const target = new URL(url);
    const jar = this.jars.get(target.origin) ?? new Map<string, string>();
    this.jars.set(target.origin, jar);
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const headers: Record<string, string> = { Accept: 'text/html,application/json', ...extraHeaders };
    if (jar.size) headers.Cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const client = target.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = client.request(target, { method, headers, ca: this.ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          for (const line of res.headers['set-cookie'] ?? []) {
            const [pair, ...attributes] = line.split(';');
            const eq = pair.indexOf('=');
            const name = pair.slice(0, eq).trim();
            const value = pair.slice(eq + 1).trim();
            const expired = attributes.some((a) => a.trim().toLowerCase() === 'max-age=0');
            if (expired || !value) jar.delete(name);
            else jar.set(name, value);
          }
          const location = res.headers.location ? new URL(res.headers.location, target).href : null;
          resolve({ status: res.statusCode ?? 0, location, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /**
   * Starts single sign-on as a person does (docs/sso.md): opens Klaxon's start page at `startUrl`
   * (`{app}/auth/sso/start?email=…`), then submits its "Continue with SSO" form as a browser
   * would (the page's fields, this page's `Origin`); answers the POST's answer (302 to the IdP).
   */
  async startSso(startUrl: string): Promise<BrowserResponse> {
    const page = await this.request('GET', startUrl);
    if (page.status !== 200) return page;
    const form = startPageForm(page.body, startUrl);
    return this.request('POST', form.action, form.fields, { Origin: new URL(startUrl).origin });
  }

  /**
   * Walks the IdP from `url` (its authorization URL) to the redirect back to `appUrl`, signing in
   * as `login` when the IdP shows its login form; answers the URL the IdP sent the browser back to.
   */
  async signInAtIdp(url: string, appUrl: string, login: string, opts: { authenticatedSecondsAgo?: number } = {}): Promise<string> {
    let next = url;
    for (let step = 0; step < 12; step++) {
      const res = await this.request('GET', next);
      if (res.status >= 300 && res.status < 400 && res.location) {
        if (res.location.startsWith(appUrl)) return res.location;
        next = res.location;
        continue;
      }
      if (res.status === 200 && new URL(next).pathname.startsWith('/interaction/')) {
        // The test IdP (test/fakes/oidc-idp-server.mjs) can record the sign-in as an old one.
        const at = opts.authenticatedSecondsAgo ? `${next}?authenticated_seconds_ago=${opts.authenticatedSecondsAgo}` : next;
        const posted = await this.request('POST', at, { prompt: 'login', login, password: 'any password' });
        if (!posted.location) throw new Error(`the IdP's login form answered ${posted.status}: ${posted.body.slice(0, 300)}`);
        next = posted.location;
        continue;
      }
      const form = autoSubmittedForm(res.body, next);
      if (res.status === 200 && form) {
        const posted = await this.request('POST', form.action, form.fields);
        if (!posted.location) throw new Error(`the IdP's form answered ${posted.status}: ${posted.body.slice(0, 300)}`);
        if (posted.location.startsWith(appUrl)) return posted.location;
        next = posted.location;
        continue;
      }
      throw new Error(`the IdP answered ${res.status} at ${next}: ${res.body.slice(0, 300)}`);
    }
    throw new Error('the IdP never sent the browser back');
  }
}

/** Klaxon's start page's form: its action and hidden fields (attribute values HTML-escaped). */
export function startPageForm(html: string, base: string): { action: string; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form on the start page: ${html.slice(0, 300)}`);
  const unescape = (v: string) => v.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[m[1]] = unescape(m[2]);
  return { action: new URL(unescape(action), base).href, fields };
}

/** A page that posts itself at once (oidc-provider's form_post pages): its action and hidden fields. */
function autoSubmittedForm(html: string, base: string): { action: string; fields: Record<string, string> } | undefined {
  if (!html.includes('document.forms[0].submit()')) return undefined;
  const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1];
  if (!action) return undefined;
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)) fields[m[1]] = m[2];
  return { action: new URL(action.replaceAll('&amp;', '&'), base).href, fields };
}
