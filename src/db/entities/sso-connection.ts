import { EntitySchema } from '@mikro-orm/core';

/** A workspace's identity provider for single sign-on (docs/sso.md): one per workspace. */
export interface SsoConnection {
  id: string;
  organizationId: string;
  /** `oidc` or `saml`: which sign-in method (src/services/sso/sign-in-methods.ts) reads `settings`. */
  protocol: string;
  /** The method's non-secret settings (OIDC: issuer, client_id; SAML: the IdP's metadata or entity id, URL and certificate). */
  settings: Record<string, unknown>;
  /** The OIDC client secret, sealed (AES-256-GCM under KLAXON_SECRET); never answered. */
  clientSecretSealed: string | null;
  /** The role a person signing in for the first time gets (just-in-time membership). */
  defaultRole: string;
  /** Password logins refused (403 `sso_required`) for every member but Billing Owners. */
  requireSso: boolean;
  updatedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const SsoConnectionSchema = new EntitySchema<SsoConnection>({
  name: 'SsoConnection',
  tableName: 'sso_connections',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', unique: true },
    protocol: { type: 'string', length: 8 },
    settings: { type: 'json' },
    clientSecretSealed: { type: 'text', nullable: true, lazy: true },
    defaultRole: { type: 'string', length: 32 },
    requireSso: { type: 'boolean', default: false },
    updatedBy: { type: 'uuid', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    updatedAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
