import { readBody } from '../../../../src/domain/ingest/body';
import { detectSender } from '../../../../src/domain/ingest/native';
import { uptimeRobotSender } from '../../../../src/domain/ingest/native/uptimerobot';

const FORM =
  'monitorID=797214863&monitorURL=https%3A%2F%2Fstatus-api.example.io%2Fping&monitorFriendlyName=Public+API+ping&alertType=1&alertTypeFriendlyName=Down&alertDetails=Connection+Timeout';

describe('UptimeRobot webhook', () => {
  it('when the variables arrive as a form body, then it is detected and normalised like the JSON template', () => {
    const body = readBody(FORM);
    expect(detectSender(body, { 'content-type': 'application/x-www-form-urlencoded' })?.name).toBe('uptimerobot');
    expect(uptimeRobotSender.normalise(body, {})[0]).toMatchObject({
      source: 'uptimerobot',
      title: 'Public API ping',
      severity: 'critical',
      dedupKey: '797214863',
      action: 'trigger',
      message: 'Connection Timeout',
    });
  });

  it('when the variables arrive as a query string, then an up alert resolves', () => {
    const body = readBody('?monitorID=797214863&monitorFriendlyName=Public%20API%20ping&alertType=2');
    expect(detectSender(body, {})?.name).toBe('uptimerobot');
    expect(uptimeRobotSender.normalise(body, {})[0]).toMatchObject({ action: 'resolve', severity: 'info', dedupKey: '797214863' });
  });

  it('when the template sends numbers unquoted, then they are read as text', () => {
    expect(uptimeRobotSender.normalise({ monitorID: 797214863, alertType: 1, monitorFriendlyName: 'Public API ping' }, {})[0]).toMatchObject({
      action: 'trigger',
      dedupKey: '797214863',
    });
  });

  it('when the alert is an SSL expiry notice or unknown type, then it is a warning trigger', () => {
    for (const alertType of ['3', '99']) {
      expect(uptimeRobotSender.normalise({ monitorID: '1', alertType, monitorFriendlyName: 'm' }, {})[0]).toMatchObject({
        action: 'trigger',
        severity: 'warning',
      });
    }
  });
});
