/**
 * The one writer of `sso_connections` and `sso_domains` (docs/sso.md): a workspace's identity
 * provider, the email domains it lists (each routing logins and admitting people only once proven
 * by DNS: ./domains.ts), and reading them back for a login. The OIDC client secret is sealed under
 * KLAXON_SECRET and never answered.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import { PLAN_LIMITS, SSO_PLAN, type Plan } from '../../domain/plans';
import type { Role } from '../../domain/roles';
import { type SsoProtocol } from '../../domain/sso';
import { iso } from '../../db/timestamps';
import { recordAudit, type AuditActor } from '../audit';
import { forbidden, invalid, notFound } from '../errors';
import type { Sealer } from '../sealing/seal';
import { assertDomainsFree, domainViewsOf, provenDomainsOf, replaceDomainListings, type SsoDomainView } from './domains';

/** OIDC settings as the workspace gives them (`client_secret` optional when one is already stored). */
export interface OidcSettingsInput {
  type: 'oidc';
  issuer: string;
  client_id: string;
  client_secret?: string;
}

/** SAML settings: the IdP's metadata XML, or its entity id, sign-in URL and signing certificate. */
export type SamlSettingsInput =
  { type: 'saml'; idp_metadata_xml: string } | { type: 'saml'; idp_entity_id: string; idp_sso_url: string; idp_certificate: string };

/** The body of `PUT /api/sso`, once parsed (domains normalised, unique). */
export type SsoSettingsInput = (OidcSettingsInput | SamlSettingsInput) & { domains: string[]; default_role: Role; require_sso: boolean };

/** What `GET /api/sso` answers: the settings, never the client secret. */
export type SsoSettingsView = Record<string, unknown> & {
  type: SsoProtocol;
  /** Each listed domain, whether it is proven, and the TXT record that proves it. */
  domains: SsoDomainView[];
  default_role: Role;
  require_sso: boolean;
  updated_at: string;
};

/** A workspace's connection as a login reads it: the secret opened, the plan beside it. */
export interface LoginConnection {
  organizationId: string;
  plan: Plan;
  protocol: SsoProtocol;
  settings: Record<string, string>;
  clientSecret?: string;
  defaultRole: Role;
  requireSso: boolean;
  /** The listed domains this workspace has proven (DNS): only these admit people just in time or by SCIM. */
  provenDomains: string[];
  /** Changes when the settings do: cached IdP configurations are keyed by it. */
  version: string;
}

/** What a refused workspace is told (403 `plan_limit_reached`). */
export const ssoPlanRefusal = (plan: Plan): string => `the ${plan} plan does not include single sign-on (${SSO_PLAN} does)`;

/** Refuses (403 `plan_limit_reached`) a workspace whose plan has no single sign-on. */
export function assertSsoPlan(plan: Plan): void {
  if (!PLAN_LIMITS[plan].singleSignOn) throw forbidden(ssoPlanRefusal(plan), 'plan_limit_reached');
}

interface ConnectionRow {
  organization_id: string;
  protocol: SsoProtocol;
  settings: Record<string, string>;
  client_secret_sealed: string | null;
  default_role: Role;
  require_sso: boolean;
  updated_at: Date | string;
}

/** The workspace's SSO settings as GET /api/sso answers them (no secret); 404 when none are set. */
export async function ssoSettingsOf(db: Knex, organizationId: string): Promise<SsoSettingsView> {
  const row = (await db('sso_connections').select('*').where({ organization_id: organizationId }).first()) as ConnectionRow | undefined;
  if (!row) throw notFound('single sign-on is not set up for this workspace');
  const secret = row.protocol === 'oidc' ? { client_secret_set: row.client_secret_sealed !== null } : {};
  return {
    type: row.protocol,
    ...row.settings,
    ...secret,
    domains: await domainViewsOf(db, organizationId),
    default_role: row.default_role,
    require_sso: row.require_sso,
    updated_at: iso(row.updated_at),
  };
}

/** The protocol's settings, without the secret and the shared fields. */
function protocolSettings(input: SsoSettingsInput): Record<string, string> {
  if (input.type === 'oidc') return { issuer: input.issuer, client_id: input.client_id };
  if ('idp_metadata_xml' in input) return { idp_metadata_xml: input.idp_metadata_xml };
  return { idp_entity_id: input.idp_entity_id, idp_sso_url: input.idp_sso_url, idp_certificate: input.idp_certificate };
}

/**
 * Creates or replaces the workspace's SSO settings, its domain listings with them, in one
 * transaction, and records `sso.create` or `sso.update` (never the secret). A domain another
 * workspace has proven is 409 `sso_domain_taken`; a domain kept in the list keeps its token and
 * proof. An OIDC connection needs a client secret the first time (later, an omitted one keeps the
 * stored one). Nothing changes on any refusal.
 */
export async function saveSsoSettings(
  db: Knex,
  sealer: Sealer,
  organizationId: string,
  input: SsoSettingsInput,
  who: { actor: AuditActor; userId: string },
): Promise<SsoSettingsView> {
  await db.transaction(async (trx) => {
    const existing = (await trx('sso_connections')
      .select('id', 'protocol', 'client_secret_sealed')
      .where({ organization_id: organizationId })
      .forUpdate()
      .first()) as { id: string; protocol: SsoProtocol; client_secret_sealed: string | null } | undefined;
    let secretSealed: string | null = null;
    if (input.type === 'oidc') {
      if (input.client_secret !== undefined) secretSealed = sealer.seal(input.client_secret);
      else if (existing?.protocol === 'oidc' && existing.client_secret_sealed) secretSealed = existing.client_secret_sealed;
      else throw invalid('client_secret: is required (no client secret is stored yet)');
    }
    await assertDomainsFree(trx, organizationId, input.domains);
    const now = new Date();
    const row = {
      protocol: input.type,
      settings: JSON.stringify(protocolSettings(input)),
      client_secret_sealed: secretSealed,
      default_role: input.default_role,
      require_sso: input.require_sso,
      updated_by: who.userId,
      updated_at: now,
    };
    if (existing) await trx('sso_connections').update(row).where({ id: existing.id });
    else await trx('sso_connections').insert({ ...row, id: randomUUID(), organization_id: organizationId, created_at: now });
    await replaceDomainListings(trx, organizationId, input.domains);
    await recordAudit(trx, {
      organizationId,
      actor: who.actor,
      action: existing ? 'sso.update' : 'sso.create',
      targetType: 'sso_connection',
      details: {
        type: input.type,
        ...(input.type === 'oidc' ? { issuer: input.issuer, client_id: input.client_id, client_secret_changed: input.client_secret !== undefined } : {}),
        domains: input.domains,
        default_role: input.default_role,
        require_sso: input.require_sso,
      },
    });
  });
  return ssoSettingsOf(db, organizationId);
}

/** Removes the workspace's SSO settings and domains (404 when none); records `sso.delete`. Members keep their accounts. */
export async function deleteSsoSettings(db: Knex, organizationId: string, actor: AuditActor): Promise<void> {
  await db.transaction(async (trx) => {
    const removed = await trx('sso_connections').delete().where({ organization_id: organizationId });
    if (!removed) throw notFound('single sign-on is not set up for this workspace');
    await trx('sso_domains').delete().where({ organization_id: organizationId });
    await recordAudit(trx, { organizationId, actor, action: 'sso.delete', targetType: 'sso_connection' });
  });
}

/** The connection of a workspace, for a login; undefined when it has none. */
export async function connectionOfWorkspace(db: Knex, sealer: Sealer, organizationId: string): Promise<LoginConnection | undefined> {
  const row = (await db('sso_connections as c')
    .join('organizations as o', 'o.id', 'c.organization_id')
    .select('c.*', 'o.plan')
    .where({ 'c.organization_id': organizationId })
    .first()) as (ConnectionRow & { plan: Plan }) | undefined;
  if (!row) return undefined;
  const clientSecret = row.client_secret_sealed ? sealer.open(row.client_secret_sealed) : undefined;
  return {
    organizationId: row.organization_id,
    plan: row.plan,
    protocol: row.protocol,
    settings: row.settings,
    clientSecret,
    defaultRole: row.default_role,
    requireSso: row.require_sso,
    provenDomains: await provenDomainsOf(db, organizationId),
    version: iso(row.updated_at),
  };
}
