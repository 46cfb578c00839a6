/**
 * AWS SNS HTTPS subscriptions. The caller verifies the signature before acting
 * (sns-verification.ts); this module only reads the envelope and what it carries.
 */
import { parseJsonText } from '../json-text';
import { compact, presentEntries, text } from '../shape';
import type { IngestHeaders, NativeSender, NormalisedEvent } from '../types';
import { isCloudWatchAlarm, normaliseAlarm } from './cloudwatch';
import { looksLikeSnsEnvelope, parseSnsEnvelope, type SnsEnvelope } from './sns-envelope';

const MESSAGE_TYPE_HEADER = 'x-amz-sns-message-type';

/** SNS: the message-type header, or a body shaped like the envelope. */
export const snsSender: NativeSender = {
  name: 'aws-sns',
  detect: (body, headers) => isEnvelopeDelivery(headers) || looksLikeSnsEnvelope(body),
  normalise: (body) => {
    const envelope = parseSnsEnvelope(body);
    // Without a complete envelope there is nothing verifiable, so nothing to act on.
    return envelope ? [normaliseEnvelope(envelope)] : [];
  },
};

// Raw message delivery keeps the SNS headers but posts the bare message, unsigned: it is
// left to later detectors (a bare CloudWatch alarm, or Form A).
function isEnvelopeDelivery(headers: IngestHeaders): boolean {
  return MESSAGE_TYPE_HEADER in headers && headers['x-amz-sns-rawdelivery'] !== 'true';
}

function normaliseEnvelope(envelope: SnsEnvelope): NormalisedEvent {
  const base = { source: 'aws-sns', severity: 'info', dedupKey: envelope.MessageId } as const;
  switch (envelope.Type) {
    case 'SubscriptionConfirmation':
      return compact<NormalisedEvent>({
        ...base,
        action: 'confirm',
        title: 'SNS subscription confirmation',
        message: envelope.Message,
        confirmUrl: envelope.SubscribeURL,
      });
    case 'UnsubscribeConfirmation':
      return { ...base, action: 'ignore', title: 'SNS unsubscribe confirmation', message: envelope.Message };
    case 'Notification':
      return normaliseNotification(envelope);
  }
}

function normaliseNotification(envelope: SnsEnvelope): NormalisedEvent {
  const alarm = parseJson(envelope.Message);
  if (isCloudWatchAlarm(alarm)) return normaliseAlarm(alarm);
  // Any other topic message: page it as-is, keyed by MessageId so SNS retries attach.
  return compact<NormalisedEvent>({
    source: 'aws-sns',
    action: 'trigger',
    title: text(envelope.Subject) ?? 'SNS notification',
    severity: 'warning',
    dedupKey: envelope.MessageId,
    message: envelope.Message,
    metadata: presentEntries({ topicArn: envelope.TopicArn }),
  });
}

// The message is JSON text inside the body: its nesting is checked before JSON.parse, as the body's was.
function parseJson(value: string): unknown {
  const parsed = parseJsonText(value);
  return parsed.ok ? parsed.value : undefined;
}
