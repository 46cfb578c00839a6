import { newRelicSender } from '../../../../src/domain/ingest/native/newrelic';
import { fixtureBody } from '../native-fixtures';

const normalise = (extra: Record<string, unknown>) => newRelicSender.normalise({ ...fixtureBody('newrelic/activated.json'), ...extra }, {})[0];

describe('New Relic workflow payload', () => {
  it.each([
    ['ACTIVATED', 'trigger'],
    ['CREATED', 'trigger'],
    ['CLOSED', 'resolve'],
    ['ACKNOWLEDGED', 'ignore'],
    ['INVESTIGATING', 'ignore'],
    ['closed', 'resolve'],
  ])('when the issue state is %s, then the action is %s', (state, action) => {
    expect(normalise({ state }).action).toBe(action);
  });

  it.each([
    ['CRITICAL', 'critical'],
    ['HIGH', 'warning'],
    ['MEDIUM', 'warning'],
    ['LOW', 'info'],
    ['SOMETHING', 'warning'],
  ])('when the priority is %s, then the severity is %s (New Relic HIGH is below CRITICAL)', (priority, severity) => {
    expect(normalise({ priority }).severity).toBe(severity);
  });

  it('when the issue is normalised, then condition, policy and issue link make the message', () => {
    expect(normalise({}).message).toBe(
      'Conditions: Kafka consumer lag\n\nPolicies: Streaming pipeline\n\nhttps://radar-api.service.newrelic.com/accounts/3981257/issues/c4e1a7d2-5f3b-4a89-9e62-0b7d8c1f2a35?notifier=WEBHOOK',
    );
  });
});
