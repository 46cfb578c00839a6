import { EntitySchema } from '@mikro-orm/core';

/**
 * A maintenance window (src/services/maintenance, its one writer; docs/maintenance-windows.md):
 * incidents of its services page nobody from `startsAt` until `endsAt`. Declared so the
 * migration and the entities agree.
 */
export interface MaintenanceWindow {
  id: string;
  organizationId: string;
  serviceIds: string[];
  startsAt: Date;
  /** Moved to the moment it was ended when a window is ended early. */
  endsAt: Date;
  reason: string;
  endedEarlyAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
}

export const MaintenanceWindowSchema = new EntitySchema<MaintenanceWindow>({
  name: 'MaintenanceWindow',
  tableName: 'maintenance_windows',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    serviceIds: { type: 'string[]', columnType: 'uuid[]' },
    startsAt: { type: 'Date', columnType: 'timestamptz' },
    endsAt: { type: 'Date', columnType: 'timestamptz' },
    reason: { type: 'string', length: 500 },
    endedEarlyAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdBy: { type: 'uuid', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
  indexes: [
    {
      name: 'maintenance_windows_service_ids_index',
      expression: 'create index "maintenance_windows_service_ids_index" on "maintenance_windows" using gin ("service_ids")',
    },
    { name: 'maintenance_windows_organization_id_ends_at_index', properties: ['organizationId', 'endsAt'] },
  ],
  checks: [{ name: 'maintenance_windows_span_check', expression: '"starts_at" < "ends_at"' }],
});
