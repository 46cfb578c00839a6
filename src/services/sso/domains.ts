/**
 * The one writer of `sso_domains` (docs/sso.md, "Proving a domain"): the email domains a workspace
 * lists for its identity provider, and their DNS proof. A listing routes logins, admits people just
 * in time and lets SCIM create accounts only once proven; an unproven one routes, admits and blocks
 * nobody. The first workspace to prove a domain holds it; another may not list it after that.
 */
import type { Knex } from '@mikro-orm/postgresql';
import { emailDomain, provesDomain, txtRecordOf } from '../../domain/sso';
import { isUniqueViolation } from '../../db/knex';
import { randomSecret } from '../accounts/secrets';
import { recordAudit, type AuditActor } from '../audit';
import { conflict, notFound } from '../errors';
import type { TxtLookup } from './domain-proof';

/** A listed domain as `GET /api/sso` answers it. */
export interface SsoDomainView {
  domain: string;
  verified: boolean;
  /** The TXT record to publish at the domain: `klaxon-verification=<token>`. */
  txt_record: string;
}

interface DomainRow {
  domain: string;
  verification_token: string;
  verified_at: Date | string | null;
}

const taken = (domain: string) => conflict(`domains: ${domain} is proven by another workspace and routes to its identity provider`, 'sso_domain_taken');

/** The workspace's listed domains, by name. */
export async function domainViewsOf(db: Knex, organizationId: string): Promise<SsoDomainView[]> {
  const rows = (await db('sso_domains')
    .select('domain', 'verification_token', 'verified_at')
    .where({ organization_id: organizationId })
    .orderBy('domain')) as DomainRow[];
  return rows.map((r) => ({ domain: r.domain, verified: r.verified_at !== null, txt_record: txtRecordOf(r.verification_token) }));
}

/** The workspace's proven domains. */
export async function provenDomainsOf(db: Knex, organizationId: string): Promise<string[]> {
  const rows = (await db('sso_domains').select('domain').where({ organization_id: organizationId }).whereNotNull('verified_at').orderBy('domain')) as Array<{
    domain: string;
  }>;
  return rows.map((r) => r.domain);
}

/** 409 `sso_domain_taken` when another workspace has proven one of `domains`. */
export async function assertDomainsFree(db: Knex, organizationId: string, domains: readonly string[]): Promise<void> {
  if (!domains.length) return;
  const row = (await db('sso_domains')
    .select('domain')
    .whereIn('domain', domains)
    .whereNot({ organization_id: organizationId })
    .whereNotNull('verified_at')
    .orderBy('domain')
    .first()) as { domain: string } | undefined;
  if (row) throw taken(row.domain);
}

/**
 * Makes the workspace's listings exactly `domains`: the ones dropped go (with their proof), the
 * new ones get a fresh token, unproven; the ones kept keep their token and proof.
 */
export async function replaceDomainListings(trx: Knex, organizationId: string, domains: readonly string[]): Promise<void> {
  const gone = trx('sso_domains').delete().where({ organization_id: organizationId });
  await (domains.length ? gone.whereNotIn('domain', domains) : gone);
  if (!domains.length) return;
  await trx('sso_domains')
    .insert(domains.map((domain) => ({ organization_id: organizationId, domain, verification_token: randomSecret(), verified_at: null })))
    .onConflict(['organization_id', 'domain'])
    .ignore();
}

/**
 * Checks the domain's TXT records for the workspace's proof and, when found, marks it proven:
 * 200 `{domain, verified: true}`. 404 when the workspace does not list it; 409 `sso_domain_taken`
 * when another workspace proved it first; 409 `domain_unverified` naming the record looked for.
 */
export async function verifySsoDomain(
  db: Knex,
  lookup: TxtLookup,
  organizationId: string,
  domain: string,
  actor: AuditActor,
  now = new Date(),
): Promise<{ domain: string; verified: true }> {
  const row = (await db('sso_domains').select('domain', 'verification_token', 'verified_at').where({ organization_id: organizationId, domain }).first()) as
    DomainRow | undefined;
  if (!row) throw notFound(`domain: ${domain} is not one of this workspace's single sign-on domains (add it to domains first)`);
  if (row.verified_at !== null) return { domain, verified: true };
  await assertDomainsFree(db, organizationId, [domain]);
  const record = txtRecordOf(row.verification_token);
  let found: boolean;
  try {
    found = provesDomain(await lookup(domain), row.verification_token);
  } catch (err) {
    throw conflict(`domain: ${(err as Error).message}; Klaxon looks for a TXT record "${record}" at ${domain}`, 'domain_unverified');
  }
  if (!found)
    throw conflict(
      `domain: no TXT record "${record}" at ${domain} yet: publish it at your DNS provider, wait until it is visible, then verify again`,
      'domain_unverified',
    );
  try {
    await db.transaction(async (trx) => {
      await trx('sso_domains').update({ verified_at: now }).where({ organization_id: organizationId, domain }).whereNull('verified_at');
      await recordAudit(trx, { organizationId, actor, action: 'sso.domain_verify', targetType: 'sso_domain', details: { domain } });
    });
  } catch (err) {
    // Another workspace proved it between our check and this write.
    if (isUniqueViolation(err)) throw taken(domain);
    throw err;
  }
  return { domain, verified: true };
}

/** The workspace an email address's domain routes to: the one that proved it, if any. */
export async function workspaceForEmail(db: Knex, email: string): Promise<string | undefined> {
  const domain = emailDomain(email);
  if (!domain) return undefined;
  const row = (await db('sso_domains').select('organization_id').where({ domain }).whereNotNull('verified_at').first()) as
    { organization_id: string } | undefined;
  return row?.organization_id;
}

/** True when the address is in one of the workspace's proven domains. */
export const inProvenDomain = (provenDomains: readonly string[], email: string): boolean => {
  const domain = emailDomain(email);
  return domain !== undefined && provenDomains.includes(domain);
};
