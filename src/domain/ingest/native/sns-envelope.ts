/** The AWS SNS HTTPS delivery envelope: what SNS wraps around every message it posts. */
import { isObject } from '../shape';

/** The `Type` values SNS posts to HTTPS subscribers. */
export const SNS_MESSAGE_TYPES = ['SubscriptionConfirmation', 'Notification', 'UnsubscribeConfirmation'] as const;
export type SnsMessageType = (typeof SNS_MESSAGE_TYPES)[number];

/** An SNS message as posted; field names and values exactly as sent (they are signed). */
export interface SnsEnvelope {
  Type: SnsMessageType;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  SubscribeURL?: string;
  Token?: string;
  UnsubscribeURL?: string;
}

const REQUIRED = ['MessageId', 'TopicArn', 'Message', 'Timestamp', 'SignatureVersion', 'Signature', 'SigningCertURL'] as const;
const OPTIONAL = ['Subject', 'SubscribeURL', 'Token', 'UnsubscribeURL'] as const;

/** True when `value` is one of the three SNS message types. */
export function isSnsMessageType(value: unknown): value is SnsMessageType {
  return (SNS_MESSAGE_TYPES as readonly unknown[]).includes(value);
}

/** The envelope when every required field is a string; undefined otherwise (fail verification). */
export function parseSnsEnvelope(body: unknown): SnsEnvelope | undefined {
  if (!isObject(body) || !isSnsMessageType(body.Type)) return undefined;
  // Values are kept untrimmed: the signature covers them byte for byte.
  if (!REQUIRED.every((key) => typeof body[key] === 'string')) return undefined;
  const envelope: Record<string, string> = { Type: body.Type };
  for (const key of [...REQUIRED, ...OPTIONAL]) {
    const value = body[key];
    if (typeof value === 'string') envelope[key] = value;
  }
  return envelope as unknown as SnsEnvelope;
}

/** True for a body shaped like an envelope (detection step 1 without the header). */
export function looksLikeSnsEnvelope(body: unknown): boolean {
  return isObject(body) && isSnsMessageType(body.Type) && ['TopicArn', 'SignatureVersion', 'SigningCertURL'].every((key) => key in body);
}
