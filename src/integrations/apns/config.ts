/** APNs' variables: key, key id, team id and topic together, or none (iOS push goes to the dev inbox). */
import { z } from 'zod';
import type { NotifyConfig } from '../../config';
import { contentOrFile, group } from '../../config-env';
import { integrationSettings } from '../settings';

export const apnsEnv = z.object({
  APNS_KEY: z.string().min(1).optional(),
  APNS_KEY_ID: z.string().min(1).optional(),
  APNS_TEAM_ID: z.string().min(1).optional(),
  APNS_TOPIC: z.string().min(1).optional(),
  APNS_HOST: z.string().min(1).optional(),
  APNS_PORT: z.coerce.number().int().min(1).max(65535).default(443),
  APNS_PRODUCTION: z.enum(['true', 'false', '1', '0']).default('false'),
  APNS_CA_FILE: z.string().min(1).optional(),
});

export interface ApnsConfig {
  key: string;
  keyId: string;
  teamId: string;
  topic: string;
  host?: string;
  port: number;
  production: boolean;
  ca?: string;
}

/** APNs' settings once its group is set (the key read from its file); undefined: iOS push goes to the dev inbox. */
export const apnsSettings: (notify: NotifyConfig) => ApnsConfig | undefined = integrationSettings(apnsEnv, apnsConfig);

function apnsConfig(e: z.infer<typeof apnsEnv>): ApnsConfig | undefined {
  const apns = group(e, ['APNS_KEY', 'APNS_KEY_ID', 'APNS_TEAM_ID', 'APNS_TOPIC']);
  return (
    apns && {
      key: contentOrFile('APNS_KEY', apns.APNS_KEY, (v) => v.includes('-----BEGIN')),
      keyId: apns.APNS_KEY_ID,
      teamId: apns.APNS_TEAM_ID,
      topic: apns.APNS_TOPIC,
      host: e.APNS_HOST,
      port: e.APNS_PORT,
      production: e.APNS_PRODUCTION === 'true' || e.APNS_PRODUCTION === '1',
      ca: e.APNS_CA_FILE === undefined ? undefined : contentOrFile('APNS_CA_FILE', e.APNS_CA_FILE, () => false),
    }
  );
}
