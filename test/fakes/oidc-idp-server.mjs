// A real OpenID provider (`oidc-provider`, ESM) for the SSO tests, in a process of its own so jest
// never loads it: HTTPS with the test's certificate, one client registered for Klaxon's callback.
// Started by test/fakes/oidc-idp.ts, which reads the first stdout line `listening <issuer>`.
//
// Accounts: whatever login is typed at the dev login form is the account; its email is the login,
// and `email_verified` is false for logins starting with `unverified` (to test the refusal).
// A login form posted with `?authenticated_seconds_ago=N` records the sign-in as made N seconds
// ago: an IdP that reuses an old sign-in (auth_time in the past) for a request that asked for a new one.
import https from 'node:https';
import { readFileSync } from 'node:fs';
import Provider from 'oidc-provider';

const { IDP_CERT_FILE, IDP_KEY_FILE, IDP_CLIENT_ID, IDP_CLIENT_SECRET, IDP_REDIRECT_URI } = process.env;
const server = https.createServer({ cert: readFileSync(IDP_CERT_FILE), key: readFileSync(IDP_KEY_FILE) });
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `https://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: IDP_CLIENT_ID,
      client_secret: IDP_CLIENT_SECRET,
      redirect_uris: [IDP_REDIRECT_URI],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  cookies: { keys: ['klaxon-test-idp-cookie-key'] },
  features: { devInteractions: { enabled: true } },
  findAccount: (_ctx, id) => ({
    accountId: id,
    claims: () => ({ sub: id, email: id, email_verified: !id.startsWith('unverified'), name: `Person ${id.split('@')[0]}` }),
  }),
  // No consent screen: this client is trusted (the recipe from oidc-provider's documentation).
  loadExistingGrant: async (ctx) => {
    const grant =
      (ctx.oidc.result?.consent?.grantId && (await ctx.oidc.provider.Grant.find(ctx.oidc.result.consent.grantId))) ||
      new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
});
const callback = provider.callback();

/** The login form's fields (urlencoded, small). */
async function formOf(req) {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

server.on('request', async (req, res) => {
  const url = new URL(req.url, issuer);
  const staleBy = Number(url.searchParams.get('authenticated_seconds_ago'));
  if (req.method !== 'POST' || !url.pathname.startsWith('/interaction/') || !staleBy) return callback(req, res);
  const login = (await formOf(req)).get('login');
  const ts = Math.floor(Date.now() / 1000) - staleBy;
  await provider.interactionFinished(req, res, { login: { accountId: login, ts } }, { mergeWithLastSubmission: false });
});
process.stdout.write(`listening ${issuer}\n`);
