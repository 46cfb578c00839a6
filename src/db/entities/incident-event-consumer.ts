import { EntitySchema } from '@mikro-orm/core';

/** A consumer's position in the incident-event feed: the last (xid, seq) it has taken. */
export interface IncidentEventConsumer {
  name: string;
  positionXid: string;
  positionSeq: string;
  updatedAt: Date;
}

export const IncidentEventConsumerSchema = new EntitySchema<IncidentEventConsumer>({
  name: 'IncidentEventConsumer',
  tableName: 'incident_event_consumers',
  properties: {
    name: { type: 'text', primary: true },
    positionXid: { type: 'string', columnType: 'xid8', defaultRaw: `'0'` },
    positionSeq: { type: 'bigint', defaultRaw: '0' },
    updatedAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
