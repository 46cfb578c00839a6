import { EntitySchema } from '@mikro-orm/core';

/** A page a channel without provider credentials would have sent, kept in the dev inbox so people can see it. */
export interface DevDelivery {
  id: string;
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  /** The whole message as the provider would have received it. */
  payload: Record<string, unknown>;
  createdAt: Date;
}

export const DevDeliverySchema = new EntitySchema<DevDelivery>({
  name: 'DevDelivery',
  tableName: 'dev_deliveries',
  indexes: [{ properties: ['createdAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    channel: { type: 'string', length: 16 },
    to: { type: 'text' },
    subject: { type: 'text', nullable: true },
    body: { type: 'text' },
    payload: { type: 'json' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
