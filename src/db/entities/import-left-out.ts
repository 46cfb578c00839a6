import { EntitySchema } from '@mikro-orm/core';

/**
 * A place (a rotation, an escalation step) a person was left out of by the last import, because
 * their address has a Klaxon account outside the workspace and they were invited instead
 * (docs/importers.md, "People"). Written by src/services/importers/left-out.ts only; readiness
 * shows it while they are not a member.
 */
export interface ImportLeftOut {
  id: string;
  organizationId: string;
  /** `pagerduty` or `opsgenie`. */
  system: string;
  /** The person's id in the source. */
  externalId: string;
  email: string;
  /** The schedule or policy they are missing from, when it is in Klaxon. */
  scheduleId: string | null;
  policyId: string | null;
  /** Where, as people read it ("Platform Primary / Around the clock"). */
  place: string;
  createdAt: Date;
}

export const ImportLeftOutSchema = new EntitySchema<ImportLeftOut>({
  name: 'ImportLeftOut',
  tableName: 'import_left_out',
  indexes: [{ properties: ['organizationId', 'system'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    system: { type: 'string', length: 16 },
    externalId: { type: 'string', length: 255 },
    email: { type: 'string', length: 320 },
    scheduleId: { type: 'uuid', nullable: true },
    policyId: { type: 'uuid', nullable: true },
    place: { type: 'string', length: 600 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
