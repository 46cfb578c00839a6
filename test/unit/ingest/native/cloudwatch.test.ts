import { cloudwatchRawSender, normaliseAlarm } from '../../../../src/domain/ingest/native/cloudwatch';
import { fixtureBody } from '../native-fixtures';

const alarm = (extra: Record<string, unknown> = {}) => ({
  ...(JSON.parse(fixtureBody('sns/cloudwatch_alarm.json').Message as string) as Record<string, unknown>),
  ...extra,
});

describe('CloudWatch alarms', () => {
  it('when the alarm state is INSUFFICIENT_DATA, then it is a warning trigger', () => {
    expect(normaliseAlarm(alarm({ NewStateValue: 'INSUFFICIENT_DATA' }))).toMatchObject({ action: 'trigger', severity: 'warning' });
  });

  it('when the alarm has no AlarmArn, then the key is AWSAccountId:Region:AlarmName', () => {
    expect(normaliseAlarm(alarm({ AlarmArn: undefined })).dedupKey).toBe('318442907165:EU (Ireland):prod-checkout-5xx-rate');
    expect(normaliseAlarm(alarm({ AlarmArn: undefined, Region: undefined })).dedupKey).toBeNull();
  });

  it('when the alarm is normalised, then reason and description are the message and description', () => {
    const event = normaliseAlarm(alarm());
    expect(event.message).toMatch(/^Threshold Crossed: 3 out of the last 3/);
    expect(event.description).toMatch(/^More than 25 HTTP 5xx/);
  });

  it('when raw message delivery posts an OK alarm, then it resolves as aws-cloudwatch', () => {
    expect(cloudwatchRawSender.normalise(alarm({ NewStateValue: 'OK' }), {})[0]).toMatchObject({
      source: 'aws-cloudwatch',
      action: 'resolve',
      severity: 'info',
    });
  });
});
