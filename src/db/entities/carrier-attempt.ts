import { EntitySchema } from '@mikro-orm/core';

/** What a carrier did with a phone page: refused it, took it, then delivered it or failed it. */
export const CARRIER_ATTEMPT_STATUSES = ['refused', 'sent', 'delivered', 'failed'] as const;
export type CarrierAttemptStatus = (typeof CARRIER_ATTEMPT_STATUSES)[number];

/**
 * One carrier a phone page (SMS, voice) went to (docs/reliability.md, "Carriers"), written only by
 * src/services/paging/carrier-attempts.ts. The page's row keeps one outcome; these say which
 * carriers it went through and why, time its delivery, and feed the circuit breaker.
 */
export interface CarrierAttempt {
  id: string;
  notificationId: string;
  incidentId: string;
  /** twilio, vonage (src/domain/paging/carrier-routes.ts). */
  carrier: string;
  channel: string;
  /** The carrier's id for it (message SID, message_uuid, call uuid); null when it refused. */
  providerMessageId: string | null;
  status: CarrierAttemptStatus;
  error: string | null;
  /** When the carrier answered the request (took or refused it). */
  createdAt: Date;
  /** When its delivery report settled it (delivered, failed). */
  settledAt: Date | null;
}

export const CarrierAttemptSchema = new EntitySchema<CarrierAttempt>({
  name: 'CarrierAttempt',
  tableName: 'carrier_attempts',
  indexes: [
    { name: 'carrier_attempts_notification_id_index', properties: ['notificationId'] },
    { name: 'carrier_attempts_incident_id_index', properties: ['incidentId'] },
    { name: 'carrier_attempts_carrier_created_at_index', properties: ['carrier', 'createdAt'] },
    {
      name: 'carrier_attempts_provider_message_id_index',
      expression:
        'create index "carrier_attempts_provider_message_id_index" on "carrier_attempts" ("provider_message_id") where "provider_message_id" is not null',
    },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    notificationId: { type: 'uuid' },
    incidentId: { type: 'uuid' },
    carrier: { type: 'text' },
    channel: { type: 'text' },
    providerMessageId: { type: 'text', nullable: true },
    status: { type: 'text' },
    error: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    settledAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/**
 * A carrier's report that came before its attempt was recorded (written and taken only by
 * src/services/paging/carrier-attempts.ts): the attempt takes it when it is recorded.
 */
export interface CarrierEarlyReport {
  providerMessageId: string;
  status: 'delivered' | 'failed';
  error: string | null;
  receivedAt: Date;
}

export const CarrierEarlyReportSchema = new EntitySchema<CarrierEarlyReport>({
  name: 'CarrierEarlyReport',
  tableName: 'carrier_early_reports',
  indexes: [{ name: 'carrier_early_reports_received_at_index', properties: ['receivedAt'] }],
  properties: {
    providerMessageId: { type: 'text', primary: true },
    status: { type: 'text' },
    error: { type: 'text', nullable: true },
    receivedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
