import { EntitySchema } from '@mikro-orm/core';

/** An object an import brought in from PagerDuty or Opsgenie, by its id there (written by src/services/importers/mappings.ts only). */
export interface ImportMapping {
  id: string;
  organizationId: string;
  /** `pagerduty` or `opsgenie`. */
  system: string;
  /** `user`, `contact_method`, `notification_rule`, `team`, `schedule`, `escalation_policy`, `service`, `source`, `schedule_override`. */
  kind: string;
  externalId: string;
  klaxonId: string;
  createdAt: Date;
  updatedAt: Date;
}

export const ImportMappingSchema = new EntitySchema<ImportMapping>({
  name: 'ImportMapping',
  tableName: 'import_mappings',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    system: { type: 'string', length: 16 },
    kind: { type: 'string', length: 32 },
    externalId: { type: 'string', length: 255 },
    klaxonId: { type: 'uuid' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
  uniques: [{ properties: ['organizationId', 'system', 'kind', 'externalId'] }],
});
