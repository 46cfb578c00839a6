/** FCM's variables: a service-account key (inline JSON or a file), and its project when the key names none. */
import { z } from 'zod';
import type { NotifyConfig } from '../../config';
import { contentOrFile, fail, trimSlash } from '../../config-env';
import { integrationSettings } from '../settings';

export const fcmEnv = z.object({
  FCM_PROJECT_ID: z.string().min(1).optional(),
  FCM_SERVICE_ACCOUNT: z.string().min(1).optional(),
  FCM_BASE_URL: z.string().url().default('https://fcm.googleapis.com'),
});

/** The fields of a Google service-account key file that FCM needs. */
export interface FcmServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id?: string;
  token_uri?: string;
}

export interface FcmConfig {
  projectId: string;
  serviceAccount: FcmServiceAccount;
  baseUrl: string;
}

/** The service-account key, inline JSON or a file path. */
function fcmServiceAccount(value: string): FcmServiceAccount {
  const text = contentOrFile('FCM_SERVICE_ACCOUNT', value, (v) => v.trimStart().startsWith('{'));
  let json: Partial<FcmServiceAccount> | undefined;
  try {
    json = JSON.parse(text) as Partial<FcmServiceAccount>;
  } catch {
    // JSON.parse quotes the text it choked on: a private key must not reach the message.
  }
  if (typeof json?.client_email !== 'string' || typeof json.private_key !== 'string')
    fail('FCM_SERVICE_ACCOUNT', 'is not a service-account key (JSON with client_email and private_key)');
  return json as FcmServiceAccount;
}

/** FCM's settings once FCM_SERVICE_ACCOUNT is set; undefined: Android push goes to the dev inbox. */
export const fcmSettings: (notify: NotifyConfig) => FcmConfig | undefined = integrationSettings(fcmEnv, fcmConfig);

function fcmConfig(e: z.infer<typeof fcmEnv>): FcmConfig | undefined {
  const account = e.FCM_SERVICE_ACCOUNT === undefined ? undefined : fcmServiceAccount(e.FCM_SERVICE_ACCOUNT);
  const projectId = e.FCM_PROJECT_ID ?? account?.project_id;
  if (e.FCM_PROJECT_ID && !account) fail('FCM_SERVICE_ACCOUNT', 'required when FCM_PROJECT_ID is set');
  if (account && !projectId) fail('FCM_PROJECT_ID', 'required when the service account has no project_id');
  return account && projectId ? { projectId, serviceAccount: account, baseUrl: trimSlash(e.FCM_BASE_URL) } : undefined;
}
