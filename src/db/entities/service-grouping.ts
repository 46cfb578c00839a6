import { EntitySchema } from '@mikro-orm/core';
import type { GroupingRule } from '../../domain/grouping/rules';

/** A service's grouping rules, in order (docs/grouping.md). Written only by src/services/grouping/rules.ts. */
export interface ServiceGrouping {
  serviceId: string;
  organizationId: string;
  rules: GroupingRule[];
  updatedAt: Date;
}

export const ServiceGroupingSchema = new EntitySchema<ServiceGrouping>({
  name: 'ServiceGrouping',
  tableName: 'service_grouping',
  properties: {
    serviceId: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    rules: { type: 'json' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
