import { EntitySchema } from '@mikro-orm/core';

/** Who a step pages: a user, whoever is on call in a schedule, or every member of a team. */
export interface EscalationTarget {
  type: 'user' | 'schedule' | 'team';
  id: string;
}

/** One step: page its targets, then wait `delay_seconds` before the next step. */
export interface EscalationStep {
  delay_seconds: number;
  targets: EscalationTarget[];
}

/** Ordered steps run while an incident is TRIGGERED; a service has one. */
export interface EscalationPolicy {
  id: string;
  organizationId: string;
  name: string;
  steps: EscalationStep[];
  /** How many more times the whole list runs after the first pass. */
  repeat: number;
  /** After an acknowledge, return the incident to TRIGGERED when this many seconds pass. */
  ackTimeoutSeconds: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export const EscalationPolicySchema = new EntitySchema<EscalationPolicy>({
  name: 'EscalationPolicy',
  tableName: 'escalation_policies',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    name: { type: 'string', length: 255 },
    steps: { type: 'json' },
    repeat: { type: 'integer', default: 0 },
    ackTimeoutSeconds: { type: 'integer', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
