/**
 * CloudWatch alarm state changes: inside an SNS Notification's `Message`, or posted bare
 * when the subscription uses raw message delivery (no envelope, no signature).
 */
import { normaliseSeverity } from '../severity';
import { compact, hasKeys, presentEntries, text, type JsonObject } from '../shape';
import type { NativeSender, NormalisedEvent } from '../types';

/** True for an object with `AlarmName` and `NewStateValue`, a CloudWatch alarm message. */
export function isCloudWatchAlarm(value: unknown): value is JsonObject {
  return hasKeys(value, ['AlarmName', 'NewStateValue']);
}

/** The event for one alarm state change (OK resolves; ALARM and INSUFFICIENT_DATA trigger). */
export function normaliseAlarm(alarm: JsonObject): NormalisedEvent {
  const name = text(alarm.AlarmName);
  const state = text(alarm.NewStateValue)?.toUpperCase();
  const fallbackKey = [text(alarm.AWSAccountId), text(alarm.Region), name].every(Boolean) ? `${text(alarm.AWSAccountId)}:${text(alarm.Region)}:${name}` : null;
  return compact<NormalisedEvent>({
    source: 'aws-cloudwatch',
    action: state === 'OK' ? 'resolve' : 'trigger',
    title: name ?? 'CloudWatch alarm',
    severity: normaliseSeverity(state),
    dedupKey: text(alarm.AlarmArn) ?? fallbackKey,
    message: text(alarm.NewStateReason),
    description: text(alarm.AlarmDescription),
    metadata: presentEntries({
      region: text(alarm.Region),
      account: text(alarm.AWSAccountId),
      oldState: text(alarm.OldStateValue),
      newState: state,
      stateChangeTime: text(alarm.StateChangeTime),
    }),
  });
}

/** CloudWatch via SNS raw message delivery: the alarm itself is the body. */
export const cloudwatchRawSender: NativeSender = {
  name: 'aws-cloudwatch',
  detect: isCloudWatchAlarm,
  normalise: (body) => (isCloudWatchAlarm(body) ? [normaliseAlarm(body)] : []),
};
