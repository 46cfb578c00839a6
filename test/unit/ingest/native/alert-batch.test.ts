import { alertmanagerSender } from '../../../../src/domain/ingest/native/alertmanager';
import { grafanaSender } from '../../../../src/domain/ingest/native/grafana';
import { fixtureBody } from '../native-fixtures';

const firing = fixtureBody('alertmanager/firing.json');
const [firstAlert] = firing.alerts as Array<Record<string, unknown>>;

describe('Alertmanager and Grafana batches', () => {
  it('when a batch holds several alerts, then each becomes its own event with its own key and status', () => {
    const second = { ...firstAlert, status: 'resolved', fingerprint: 'aa11bb22cc33dd44', labels: { alertname: 'DiskFull', severity: 'info' }, annotations: {} };
    const events = alertmanagerSender.normalise({ ...firing, alerts: [firstAlert, second] }, {});
    expect(events.map((e) => [e.dedupKey, e.action, e.title, e.severity])).toEqual([
      ['7fa3840144758300', 'trigger', 'Replication lag on pg-replica-03 is 47s', 'critical'],
      ['aa11bb22cc33dd44', 'resolve', 'DiskFull', 'info'],
    ]);
  });

  it('when an alert has no summary, then alertname is the title', () => {
    const alert = { ...firstAlert, annotations: { description: 'd' } };
    expect(alertmanagerSender.normalise({ ...firing, alerts: [alert] }, {})[0].title).toBe('PostgresReplicationLagHigh');
  });

  it('when an alert has no severity label or no fingerprint, then severity is warning and the key is null', () => {
    const alert = { status: 'firing', labels: { alertname: 'X' } };
    expect(alertmanagerSender.normalise({ ...firing, alerts: [alert] }, {})[0]).toMatchObject({ severity: 'warning', dedupKey: null });
  });

  it('when the batch is empty or holds non-objects, then there are no events', () => {
    expect(alertmanagerSender.normalise({ ...firing, alerts: [] }, {})).toEqual([]);
    expect(alertmanagerSender.normalise({ ...firing, alerts: [null, 'x'] }, {})).toEqual([]);
  });

  it('when an alert is normalised, then description, links and labels are kept', () => {
    const [event] = alertmanagerSender.normalise(firing, {});
    expect(event.message).toMatch(/^Streaming replication lag/);
    expect(event.links).toEqual({ source: firstAlert.generatorURL, runbook: 'https://runbooks.internal.example/postgres/replication-lag' });
    expect(event.metadata).toEqual({ labels: firstAlert.labels });
  });

  it('when Grafana posts, then the per-alert summary is the title, not the group title', () => {
    const [event] = grafanaSender.normalise(fixtureBody('grafana/firing.json'), {});
    expect(event.title).toBe('/srv/backups on nas-backup-01 is 93% full');
    expect(event.links).toHaveProperty('silence');
  });
});
