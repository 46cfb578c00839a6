import { azureMonitorSender } from '../../../../src/domain/ingest/native/azure-monitor';
import { gcpMonitoringSender } from '../../../../src/domain/ingest/native/gcp-monitoring';
import { fixtureBody } from '../native-fixtures';

const azure = (severity: string) => {
  const body = fixtureBody('azure-monitor/fired.json');
  const data = body.data as { essentials: object };
  return azureMonitorSender.normalise({ ...body, data: { ...data, essentials: { ...data.essentials, severity } } }, {})[0];
};
const gcp = (extra: Record<string, unknown>) => {
  const body = fixtureBody('gcp-monitoring/incident_open.json');
  return gcpMonitoringSender.normalise({ ...body, incident: { ...(body.incident as object), ...extra } }, {})[0];
};

describe('Azure Monitor and Google Cloud Monitoring', () => {
  it.each([
    ['Sev0', 'critical'],
    ['Sev1', 'critical'],
    ['Sev2', 'warning'],
    ['Sev3', 'info'],
    ['Sev4', 'info'],
  ])('when Azure severity is %s, then the severity is %s', (severity, expected) => {
    expect(azure(severity).severity).toBe(expected);
  });

  it.each([
    ['Critical', 'critical'],
    ['Error', 'critical'],
    ['Warning', 'warning'],
    ['No severity', 'warning'],
  ])('when GCP severity is %s, then the severity is %s', (severity, expected) => {
    expect(gcp({ severity }).severity).toBe(expected);
  });

  it('when a GCP incident has no policy name, then the condition name is the title', () => {
    expect(gcp({ policy_name: undefined }).title).toBe('Cloud Run Revision - Request Latency (p99)');
  });

  it('when a GCP incident is normalised, then summary, documentation and the console link are kept', () => {
    expect(gcp({})).toMatchObject({
      message: expect.stringMatching(/is above the threshold/),
      description: 'p99 latency of ledger-writer is above 1.5s. Check Cloud SQL connection-pool saturation first.',
      links: { incident: expect.stringMatching(/^https:\/\/console\.cloud\.google\.com\//) },
    });
  });
});
