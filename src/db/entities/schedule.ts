import { EntitySchema } from '@mikro-orm/core';

/**
 * An on-call schedule: rotation layers in an IANA time zone. The shape of a layer is defined
 * and validated in src/domain/schedule; the row stores it as given.
 */
export interface Schedule {
  id: string;
  organizationId: string;
  name: string;
  timeZone: string;
  layers: unknown[];
  createdAt: Date;
  updatedAt: Date;
}

export const ScheduleSchema = new EntitySchema<Schedule>({
  name: 'Schedule',
  tableName: 'schedules',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    name: { type: 'string', length: 255 },
    timeZone: { type: 'string', length: 64 },
    layers: { type: 'json' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
