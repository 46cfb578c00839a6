import { EntitySchema } from '@mikro-orm/core';

/** What a workspace's identity provider said about one team (a SCIM Group) (docs/scim.md). */
export interface ScimGroup {
  organizationId: string;
  teamId: string;
  externalId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const ScimGroupSchema = new EntitySchema<ScimGroup>({
  name: 'ScimGroup',
  tableName: 'scim_groups',
  properties: {
    organizationId: { type: 'uuid', primary: true },
    teamId: { type: 'uuid', primary: true },
    externalId: { type: 'string', length: 255, nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
