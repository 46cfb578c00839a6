import { EntitySchema } from '@mikro-orm/core';
import type { PageStatus } from '../../domain/paging/page-outcome';

/** One page to one contact: its provider, provider message id and how it went. */
export interface PageRecord {
  /** Chosen by the incident workflow, so a retried send finds its own row. */
  id: string;
  organizationId: string;
  incidentId: string;
  userId: string | null;
  contactMethodId: string | null;
  /** A channel id (src/domain/channels.ts). */
  channel: string;
  /** Where it went: number, email address or device token. */
  target: string;
  /** A provider key of the channel registry, or dev_inbox. */
  provider: string | null;
  providerMessageId: string | null;
  status: PageStatus;
  error: string | null;
  /** The digits an SMS reply starts with to act on this incident (`4A`, `4R`). */
  replyCode: number | null;
  /** Why the channel differs from the rule's (e.g. SMS quota reached → email). */
  fallbackReason: string | null;
  escalationStep: number | null;
  /** Attempts that claimed this page for a provider call (docs/architecture.md, "Paging"). */
  attempts: number;
  /** Of those, how many went out while an earlier attempt's outcome was unknown. */
  unknownOutcomeRetries: number;
  createdAt: Date;
  updatedAt: Date;
  /** When a provider first took the page (delivery reports' latency is measured from it); null until then. */
  sentAt: Date | null;
}

export const PageRecordSchema = new EntitySchema<PageRecord>({
  name: 'Notification',
  tableName: 'notifications',
  indexes: [
    { properties: ['incidentId', 'createdAt'] },
    { properties: ['userId', 'createdAt'] },
    { properties: ['target', 'createdAt'] },
    // Reports (a workspace's pages over a range) and the status page (newest failed/sent per channel).
    { properties: ['organizationId', 'createdAt'] },
    { properties: ['organizationId', 'channel', 'status', 'updatedAt'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    incidentId: { type: 'uuid' },
    userId: { type: 'uuid', nullable: true },
    contactMethodId: { type: 'uuid', nullable: true },
    channel: { type: 'string', length: 16 },
    target: { type: 'text' },
    provider: { type: 'string', length: 16, nullable: true },
    providerMessageId: { type: 'string', length: 255, nullable: true, index: true },
    status: { type: 'string', length: 16 },
    error: { type: 'text', nullable: true },
    replyCode: { type: 'integer', nullable: true },
    fallbackReason: { type: 'text', nullable: true },
    escalationStep: { type: 'integer', nullable: true },
    attempts: { type: 'integer', default: 0 },
    unknownOutcomeRetries: { type: 'integer', default: 0 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
    sentAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
