import { AlertSchema } from './alert';
import { AlertSourceSchema } from './alert-source';
import { HeartbeatSchema } from './heartbeat';
import { IdempotencyRecordSchema } from './idempotency-record';
import { OutboxMessageSchema } from './outbox-message';
import { ApiTokenSchema } from './api-token';
import { IncidentSchema } from './incident';
import { MembershipSchema } from './membership';
import { MonitorSchema } from './monitor';
import { OrganizationSchema } from './organization';
import { ServiceSchema } from './service';
import { TeamSchema } from './team';
import { TimelineEntrySchema } from './timeline-entry';
import { UserSchema } from './user';

export * from './alert';
export * from './alert-source';
export * from './heartbeat';
export * from './idempotency-record';
export * from './outbox-message';
export * from './api-token';
export * from './incident';
export * from './membership';
export * from './monitor';
export * from './organization';
export * from './service';
export * from './team';
export * from './timeline-entry';
export * from './user';

/** Every entity the ORM knows; migrations are checked against exactly this list. */
export const ENTITIES = [
  OrganizationSchema,
  UserSchema,
  MembershipSchema,
  TeamSchema,
  ServiceSchema,
  AlertSourceSchema,
  MonitorSchema,
  IncidentSchema,
  TimelineEntrySchema,
  ApiTokenSchema,
  AlertSchema,
  IdempotencyRecordSchema,
  OutboxMessageSchema,
  HeartbeatSchema,
];
