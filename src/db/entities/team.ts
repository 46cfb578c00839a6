import { EntitySchema } from '@mikro-orm/core';

/** A group of responders; owns services and incidents. */
export interface Team {
  id: string;
  organizationId: string;
  name: string;
  createdAt: Date;
}

export const TeamSchema = new EntitySchema<Team>({
  name: 'Team',
  tableName: 'teams',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    name: { type: 'string', length: 255 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
