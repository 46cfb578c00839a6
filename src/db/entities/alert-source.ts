import { EntitySchema } from '@mikro-orm/core';

/** An ingestion URL owned by a service; the secret in the URL is stored only as a hash. */
export interface AlertSource {
  id: string;
  organizationId: string;
  serviceId: string;
  name: string;
  tokenHash: string;
  /** The key of the PagerDuty/Opsgenie-compatible intakes (docs/compat-intake.md): 32 lowercase hex, shown on every surface. */
  routingKey: string;
  /** PAUSED: its senders hear 423 and nothing is stored; REVOKED: gone (its URLs answer 404). */
  status: 'ACTIVE' | 'PAUSED' | 'REVOKED';
  alias: string | null;
  description: string | null;
  /** The ingestion URL's secret, sealed with KLAXON_SECRET, so a read can show `webhook_url`; null before it was kept. */
  urlSecretSealed: string | null;
  /** The Form B receiver's HMAC secret, sealed; null: signatures are not checked. */
  signingSecretSealed: string | null;
  /** CIDRs allowed to post to the Form B receiver; null or empty: anyone. */
  ipAllowlist: string[] | null;
  totalCalls: number;
  successfulCalls: number;
  failedCalls: number;
  updatedAt: Date | null;
  /**
   * Form B: page these channels (sms, voice, email, push) by the severity default table
   * instead of the service's escalation policy; null pages by policy.
   */
  channels: string[] | null;
  /** Whom each channel reaches, keyed by Form B name (src/domain/inbound-webhook-targets.ts); null: the owning team. */
  targetChannels: Record<string, { address: string } | { user_id: string }> | null;
  createdAt: Date;
  revokedAt: Date | null;
  /** The storm guard (docs/grouping.md, "Storm guard"): `default` follows STORM_GUARD, `custom` uses `storm`, `off` has none. */
  stormMode: 'default' | 'custom' | 'off';
  storm: { max_new_incidents: number; within_seconds: number; quiet_seconds: number } | null;
}

export const AlertSourceSchema = new EntitySchema<AlertSource>({
  name: 'AlertSource',
  tableName: 'alert_sources',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    serviceId: { type: 'uuid', index: true },
    name: { type: 'string', length: 255 },
    tokenHash: { type: 'string', length: 64, unique: true },
    routingKey: { type: 'string', length: 32, unique: true },
    status: { type: 'string', length: 16, default: 'ACTIVE' },
    channels: { type: 'json', nullable: true },
    targetChannels: { type: 'json', nullable: true },
    alias: { type: 'string', length: 255, nullable: true },
    description: { type: 'text', nullable: true },
    urlSecretSealed: { type: 'text', nullable: true },
    signingSecretSealed: { type: 'text', nullable: true },
    ipAllowlist: { type: 'json', nullable: true },
    totalCalls: { type: 'integer', default: 0 },
    successfulCalls: { type: 'integer', default: 0 },
    failedCalls: { type: 'integer', default: 0 },
    updatedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    stormMode: { type: 'string', length: 8, default: 'default' },
    storm: { type: 'json', nullable: true },
  },
});
