import { EntitySchema } from '@mikro-orm/core';

/**
 * Paging drills (docs/drills.md): a clearly marked test page to a user, a team or a schedule's
 * on-call people, one `drill_results` row per person × channel. Written only by
 * src/services/drills. Declared so the migration and the entities agree.
 */
export interface Drill {
  id: string;
  organizationId: string;
  /** user | team | schedule */
  targetType: string;
  targetId: string;
  /** The channels asked for (null: each person's notification rules decide). */
  channels: string[] | null;
  /** Who started it (null: a recurring drill). */
  createdBy: string | null;
  /** The recurring drill that started it, if any. */
  drillScheduleId: string | null;
  /** How long a press of acknowledge counts (600 s unless DRILL_ACK_WINDOW_SECONDS says otherwise). */
  ackWindowSeconds: number;
  createdAt: Date;
  /** When the acknowledgement window closed (the drill workflow's timer fired). */
  finishedAt: Date | null;
}

export const DrillSchema = new EntitySchema<Drill>({
  name: 'Drill',
  tableName: 'drills',
  indexes: [
    { name: 'drills_organization_id_created_at_index', properties: ['organizationId', 'createdAt'] },
    { name: 'drills_target_id_created_at_index', properties: ['targetId', 'createdAt'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    targetType: { type: 'string', length: 16 },
    targetId: { type: 'uuid' },
    channels: { type: 'json', nullable: true },
    createdBy: { type: 'uuid', nullable: true },
    drillScheduleId: { type: 'uuid', nullable: true },
    ackWindowSeconds: { type: 'integer' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    finishedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/** One person × channel of a drill: what was sent, how it went, whether they acknowledged. */
export interface DrillResult {
  id: string;
  drillId: string;
  organizationId: string;
  userId: string;
  userName: string;
  channel: string | null;
  contactMethodId: string | null;
  /** Where it went (a number, an address, a device token): never shown in full by the API. */
  address: string | null;
  /** pending | delivered | failed | skipped (a recurring drill found them drilled on the channel within the hour) */
  status: string;
  /** The code an SMS reply starts with (`7A`), shared with incident pages' codes per number. */
  replyCode: number | null;
  provider: string | null;
  providerMessageId: string | null;
  latencyMs: number | null;
  deliveredAt: Date | null;
  /** When an SMS or call was claimed against the plan's monthly quota (docs/drills.md, "What counts"). */
  countedAt: Date | null;
  acknowledgedAt: Date | null;
  error: string | null;
  createdAt: Date;
}

export const DrillResultSchema = new EntitySchema<DrillResult>({
  name: 'DrillResult',
  tableName: 'drill_results',
  indexes: [
    { name: 'drill_results_drill_id_index', properties: ['drillId'] },
    { name: 'drill_results_address_reply_code_index', properties: ['address', 'replyCode'] },
    { name: 'drill_results_provider_message_id_index', properties: ['providerMessageId'] },
    { name: 'drill_results_user_id_channel_created_at_index', properties: ['userId', 'channel', 'createdAt'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    drillId: { type: 'uuid' },
    organizationId: { type: 'uuid' },
    userId: { type: 'uuid' },
    userName: { type: 'string', length: 255 },
    channel: { type: 'string', length: 32, nullable: true },
    contactMethodId: { type: 'uuid', nullable: true },
    address: { type: 'text', nullable: true },
    status: { type: 'string', length: 16 },
    replyCode: { type: 'integer', nullable: true },
    provider: { type: 'string', length: 32, nullable: true },
    providerMessageId: { type: 'string', length: 255, nullable: true },
    latencyMs: { type: 'integer', nullable: true },
    deliveredAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    countedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    acknowledgedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    error: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** A recurring drill: its Temporal Schedule (`drill-schedule-<id>`) starts one at each firing. */
export interface DrillScheduleRow {
  id: string;
  organizationId: string;
  targetType: string;
  targetId: string;
  channels: string[] | null;
  /** A five-field cron expression, read in `timeZone`. */
  cron: string;
  timeZone: string;
  ackWindowSeconds: number;
  createdBy: string | null;
  createdAt: Date;
}

export const DrillScheduleSchema = new EntitySchema<DrillScheduleRow>({
  name: 'DrillSchedule',
  tableName: 'drill_schedules',
  indexes: [{ name: 'drill_schedules_organization_id_index', properties: ['organizationId'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    targetType: { type: 'string', length: 16 },
    targetId: { type: 'uuid' },
    channels: { type: 'json', nullable: true },
    cron: { type: 'string', length: 100 },
    timeZone: { type: 'string', length: 64 },
    ackWindowSeconds: { type: 'integer' },
    createdBy: { type: 'uuid', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
