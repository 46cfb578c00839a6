import { sentrySender } from '../../../../src/domain/ingest/native/sentry';
import { sentryLegacySender } from '../../../../src/domain/ingest/native/sentry-legacy';
import { fixtureBody } from '../native-fixtures';

const metricAlert = (action: string) => ({
  action,
  data: {
    metric_alert: { id: '917', alert_rule: { name: 'p95 checkout latency' } },
    description_text: '95th percentile above 2s',
    web_url: 'https://sentry.io/alerts/917',
  },
});

describe('Sentry integration webhooks', () => {
  it.each([
    ['critical', 'trigger', 'critical'],
    ['warning', 'trigger', 'warning'],
    ['resolved', 'resolve', 'info'],
  ])('when a metric alert says %s, then action is %s and severity %s', (action, expectedAction, severity) => {
    expect(sentrySender.normalise(metricAlert(action), { 'sentry-hook-resource': 'metric_alert' })).toEqual([
      {
        source: 'sentry',
        action: expectedAction,
        title: 'p95 checkout latency',
        severity,
        dedupKey: '917',
        message: '95th percentile above 2s',
        links: { alert: 'https://sentry.io/alerts/917' },
      },
    ]);
  });

  it.each([
    ['created', 'trigger'],
    ['unresolved', 'trigger'],
    ['resolved', 'resolve'],
    ['assigned', 'ignore'],
    ['archived', 'ignore'],
    ['ignored', 'ignore'],
  ])('when an issue webhook says %s, then the action is %s', (action, expected) => {
    const body = { ...fixtureBody('sentry/issue_resolved.json'), action };
    expect(sentrySender.normalise(body, { 'sentry-hook-resource': 'issue' })[0]).toMatchObject({ action: expected, dedupKey: '5123987704' });
  });

  it('when another resource arrives (installation, comment), then it is ignored', () => {
    for (const resource of ['installation', 'comment', 'error']) {
      expect(sentrySender.normalise({ action: 'created', data: {} }, { 'sentry-hook-resource': resource })).toEqual([
        { source: 'sentry', action: 'ignore', title: `Sentry ${resource}`, severity: 'info', dedupKey: null },
      ]);
    }
  });

  it('when the legacy plugin posts, then it triggers keyed by the plugin id', () => {
    const body = {
      id: '4242',
      project: 'shop',
      culprit: 'cart.views in add',
      level: 'fatal',
      url: 'https://sentry.example/i/4242',
      triggering_rules: ['r'],
      event: { title: 'KeyError: sku' },
    };
    expect(sentryLegacySender.normalise(body, {})[0]).toMatchObject({
      source: 'sentry',
      action: 'trigger',
      title: 'KeyError: sku',
      severity: 'critical',
      dedupKey: '4242',
    });
  });
});
