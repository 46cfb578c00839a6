import { EntitySchema } from '@mikro-orm/core';

/** What a workspace's identity provider said about one person over SCIM (docs/scim.md). */
export interface ScimUser {
  organizationId: string;
  userId: string;
  externalId: string | null;
  /** The name's parts as the provider sent them (users.name holds the whole name). */
  givenName: string | null;
  familyName: string | null;
  /** False once deprovisioned: the membership is gone, the row answers `active: false`. */
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const ScimUserSchema = new EntitySchema<ScimUser>({
  name: 'ScimUser',
  tableName: 'scim_users',
  properties: {
    organizationId: { type: 'uuid', primary: true },
    userId: { type: 'uuid', primary: true },
    externalId: { type: 'string', length: 255, nullable: true },
    givenName: { type: 'string', length: 100, nullable: true },
    familyName: { type: 'string', length: 100, nullable: true },
    active: { type: 'boolean' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
