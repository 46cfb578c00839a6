import { uptimeKumaSender } from '../../../../src/domain/ingest/native/uptime-kuma';
import { fixtureBody } from '../native-fixtures';

const normalise = (body: unknown) => uptimeKumaSender.normalise(body, {});
const withStatus = (status: number) => {
  const body = fixtureBody('uptime-kuma/down.json');
  return { ...body, heartbeat: { ...(body.heartbeat as object), status } };
};

describe('Uptime Kuma webhook', () => {
  it('when the test button sends null heartbeat and monitor, then one info trigger without key carries the message', () => {
    expect(normalise({ heartbeat: null, monitor: null, msg: 'Uptime Kuma Webhook Test' })).toEqual([
      { source: 'uptime-kuma', action: 'trigger', title: 'Uptime Kuma Webhook Test', severity: 'info', dedupKey: null, message: 'Uptime Kuma Webhook Test' },
    ]);
  });

  it('when a monitor notice comes without heartbeat (certificate expiry), then it is a warning trigger without key', () => {
    const body = { ...fixtureBody('uptime-kuma/down.json'), heartbeat: null, msg: 'Certificate expires in 7 days' };
    expect(normalise(body)[0]).toMatchObject({ action: 'trigger', severity: 'warning', dedupKey: null, title: 'Certificate expires in 7 days' });
  });

  it.each([
    [0, 'trigger', 'critical'],
    [1, 'resolve', 'info'],
    [2, 'ignore', 'warning'],
    [3, 'ignore', 'info'],
  ])('when heartbeat status is %s, then action is %s and severity %s', (status, action, severity) => {
    expect(normalise(withStatus(status))[0]).toMatchObject({ action, severity, dedupKey: '17', title: 'billing-portal (public)' });
  });

  it('when the monitor is down, then the heartbeat message is the detail', () => {
    expect(normalise(fixtureBody('uptime-kuma/down.json'))[0].message).toBe('connect ECONNREFUSED 10.40.2.15:8443');
  });
});
