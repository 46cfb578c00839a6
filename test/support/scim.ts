import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { setPlan } from '../../src/services/workspace';
import type { TestDnsServer } from '../fakes/dns-server';
import { dashboard, signUpAndLogIn } from './dashboard';
import type { ApiResponse } from './http';
import { makeTestIdp } from './saml-idp';
import { proveSsoDomain } from './sso-domains';

/** A SCIM client as an identity provider drives it: `application/scim+json`, a bearer token. */
export function scimClient(appUrl: string, token: string | undefined) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> => {
    const all: Record<string, string> = { Accept: 'application/scim+json', ...headers };
    if (token !== undefined) all.Authorization = `Bearer ${token}`;
    if (body !== undefined) all['Content-Type'] ??= 'application/scim+json';
    const res = await fetch(`${appUrl}/scim/v2${path}`, {
      method,
      headers: all,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
}

/**
 * A BUSINESS workspace, its Billing Owner signed in, and a SCIM token issued through the dashboard.
 * With `dns` (the stack's DNS_RESOLVERS), SAML single sign-on too, for a fresh domain proven on it:
 * the domain SCIM creates accounts in (docs/scim.md).
 */
export async function businessWorkspaceWithScim(appUrl: string, orm: MikroORM, dns?: TestDnsServer) {
  const owner = await signUpAndLogIn(appUrl, orm);
  await setPlan(orm, owner.organizationId, 'BUSINESS');
  const issued = await dashboard(appUrl, 'POST', '/sso/scim-token', { session: owner, body: { password: owner.password } });
  if (issued.status !== 201) throw new Error(`scim-token: ${issued.status} ${JSON.stringify(issued.body)}`);
  const token = issued.body.data.token as string;
  const domain = `scim-${randomUUID().slice(0, 8)}.test`;
  if (dns) {
    const idp = makeTestIdp();
    const body = { type: 'saml', idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.cert, domains: [domain] };
    const put = await dashboard(appUrl, 'PUT', '/sso', { session: owner, body });
    if (put.status !== 200) throw new Error(`PUT /api/sso: ${put.status} ${JSON.stringify(put.body)}`);
    await proveSsoDomain(appUrl, owner, dns, domain);
  }
  return { owner, token, scim: scimClient(appUrl, token), domain };
}

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** A SCIM error answer: this status (and scimType, when given), in RFC 7644 §3.12's shape. */
export function expectScimError(res: ApiResponse, status: number, scimType?: string, detail?: RegExp): void {
  expect({ status: res.status, scimType: res.body?.scimType }).toEqual({ status, scimType });
  expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: String(status), detail: expect.any(String) });
  expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
  if (detail) expect(res.body.detail).toMatch(detail);
}

/** RFC 7644 §3.3's example user, with an address of this run. */
export const babsJensen = (email: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER_SCHEMA],
  userName: email,
  externalId: `ext-${email}`,
  name: { familyName: 'Jensen', givenName: 'Barbara' },
  emails: [{ value: email, type: 'work', primary: true }],
  active: true,
  ...extra,
});

export const patchOps = (...Operations: unknown[]) => ({ schemas: [PATCH_SCHEMA], Operations });
