import { EntitySchema } from '@mikro-orm/core';

/** For [startsAt, endsAt) this user is on call in the schedule instead of its layers. */
export interface ScheduleOverride {
  id: string;
  scheduleId: string;
  userId: string;
  startsAt: Date;
  endsAt: Date;
  createdAt: Date;
}

export const ScheduleOverrideSchema = new EntitySchema<ScheduleOverride>({
  name: 'ScheduleOverride',
  tableName: 'schedule_overrides',
  indexes: [{ properties: ['scheduleId', 'endsAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    scheduleId: { type: 'uuid' },
    userId: { type: 'uuid' },
    startsAt: { type: 'Date', columnType: 'timestamptz' },
    endsAt: { type: 'Date', columnType: 'timestamptz' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
