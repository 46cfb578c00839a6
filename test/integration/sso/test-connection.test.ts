import { knexOf } from '../../../src/db/knex';
import { setPlan } from '../../../src/services/workspace';
import { dashboard, signUpAndLogIn } from '../../support/dashboard';
import { startTestStack, type TestStack } from '../../support/stack';

// "Test the connection" on the SSO page (docs/sso.md): whatever the form holds, a missing or
// wrong field is a 400 naming it (the dashboard shows it at that field), never a 500; nothing is stored.
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
});
afterAll(() => stack?.stop());

const shared = { domains: [], default_role: 'MEMBER', require_sso: false };

describe('POST /api/sso/test with empty or invalid fields', () => {
  it('when the form is sent empty or wrong (OIDC or SAML), then each answer is 400 invalid_request naming the field first, and nothing is stored', async () => {
    const owner = await signUpAndLogIn(stack.urls.app, stack.orm);
    await setPlan(stack.orm, owner.organizationId, 'BUSINESS');
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      // The empty OIDC form the page starts with: was a 500 "internal error".
      [{ type: 'oidc', issuer: '', client_id: '', ...shared }, 'issuer', /^issuer: must be an https:\/\/ URL; client_id: is required$/],
      [{ type: 'oidc', issuer: 'not a url', client_id: 'klaxon', ...shared }, 'issuer', /^issuer: must be an https:\/\/ URL$/],
      [{ type: 'oidc', issuer: 'https://login.acme.test/?x=1', client_id: 'klaxon', client_secret: 's', ...shared }, 'issuer', /no query or fragment/],
      [{ type: 'oidc', issuer: 'https://login.acme.test', client_id: '  ', client_secret: 's', ...shared }, 'client_id', /^client_id: is required$/],
      // No secret typed and none stored: the field is missing, not the IdP failing.
      [{ type: 'oidc', issuer: 'https://login.acme.test', client_id: 'klaxon', ...shared }, 'client_secret', /^client_secret: is required/],
      [{ type: 'saml', idp_metadata_xml: '', ...shared }, 'idp_metadata_xml', /^idp_metadata_xml: is required: paste the identity provider’s metadata$/],
      [{ type: 'saml', idp_metadata_xml: '<<<', ...shared }, 'idp_metadata_xml', /does not parse as XML/],
      [
        { type: 'oidc', issuer: 'https://login.acme.test', client_id: 'klaxon', client_secret: 's', ...shared, domains: ['not a domain'] },
        'domains',
        /domain name/,
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await dashboard(stack.urls.app, 'POST', '/sso/test', { session: owner, body });
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'invalid_request' });
      expect({ body, field: /^([\w.]+):/.exec(res.body.error)?.[1] }).toEqual({ body, field: field === 'domains' ? expect.stringMatching(/^domains/) : field });
      expect(res.body.error).toMatch(message);
    }
    expect(await knexOf(stack.orm)('sso_connections').where({ organization_id: owner.organizationId }).first()).toBeUndefined();
  });
});
