import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import type { Knex } from '@mikro-orm/postgresql';
import { SAML_REQUEST_TTL_MS } from './service-provider';

/** The one writer of `saml_requests`: AuthnRequests waiting for their answer. */
const TABLE = 'saml_requests';
/** Expired rows deleted per new request: the table stays small without a timer in every process. */
const PURGE_ROWS = 100;
/** Request ids are node-saml's (`_` + 40 hex); anything longer than the column is no id of ours. */
export const MAX_SAML_REQUEST_ID_LENGTH = 255;

/** An AuthnRequest we sent, as the answer finds it. */
export interface PendingSamlRequest {
  id: string;
  organizationId: string;
  relayState: string;
  issuedAt: Date;
  expiresAt: Date;
}

interface RequestRow {
  id: string;
  organization_id: string;
  relay_state: string;
  issued_at: Date;
  expires_at: Date;
}

const pendingOf = (row: RequestRow): PendingSamlRequest => ({
  id: row.id,
  organizationId: row.organization_id,
  relayState: row.relay_state,
  issuedAt: new Date(row.issued_at),
  expiresAt: new Date(row.expires_at),
});

/**
 * node-saml's InResponseTo cache kept in Postgres, so the API process that receives the answer
 * need not be the one that sent the request. Bound to one workspace and one RelayState: a request
 * saved through it is that workspace's, and reads see only that workspace's requests.
 */
export class SamlRequestCache implements CacheProvider {
  constructor(
    private readonly knex: Knex,
    private readonly binding: { organizationId: string; relayState: string },
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Called by node-saml with the new AuthnRequest's id and IssueInstant. */
  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    const now = this.now();
    await this.knex.raw(`delete from ${TABLE} where id in (select id from ${TABLE} where expires_at < ? limit ${PURGE_ROWS})`, [now]);
    const inserted = await this.knex(TABLE)
      .insert({
        id: key,
        organization_id: this.binding.organizationId,
        relay_state: this.binding.relayState,
        issued_at: new Date(value),
        expires_at: new Date(now.getTime() + SAML_REQUEST_TTL_MS),
      })
      .onConflict('id')
      .ignore()
      .returning('id');
    // A 160-bit random id taken already means something is badly wrong: never share a request.
    if (inserted.length === 0) throw new Error('SAML request id collision');
    return { value, createdAt: now.getTime() };
  }

  async getAsync(key: string): Promise<string | null> {
    const row = await this.knex(TABLE)
      .where({ id: key, organization_id: this.binding.organizationId })
      .andWhere('expires_at', '>', this.now())
      .first('issued_at');
    return row ? new Date(row.issued_at).toISOString() : null;
  }

  async removeAsync(key: string | null): Promise<string | null> {
    if (key === null) return null;
    const deleted = await this.knex(TABLE).where({ id: key, organization_id: this.binding.organizationId }).delete().returning('id');
    return deleted.length ? key : null;
  }
}

/**
 * Takes a waiting request out of the table, in one statement: of two answers to one request (a
 * replay, a double post) only one finds it. Expired or unknown: null.
 */
export async function claimSamlRequest(knex: Knex, id: string, now: Date = new Date()): Promise<PendingSamlRequest | null> {
  if (id.length > MAX_SAML_REQUEST_ID_LENGTH) return null;
  const rows = (await knex(TABLE).where({ id }).andWhere('expires_at', '>', now).delete().returning('*')) as RequestRow[];
  return rows.length ? pendingOf(rows[0]) : null;
}

/**
 * node-saml's cache as the answer's validation sees it: the one request this answer claimed, and
 * nothing else (so the assertion's SubjectConfirmationData InResponseTo must name it too).
 */
export function claimedRequestCache(claimed: PendingSamlRequest): CacheProvider {
  const issued = claimed.issuedAt.toISOString();
  return {
    saveAsync: () => Promise.reject(new Error('the answer side never sends requests')),
    getAsync: (key) => Promise.resolve(key === claimed.id ? issued : null),
    // Already out of the table: claiming it spent it.
    removeAsync: (key) => Promise.resolve(key),
  };
}
