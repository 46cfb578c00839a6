/**
 * Sentry integration-platform webhooks (internal integrations). The resource header says
 * what the body holds; the caller checks `sentry-hook-signature` before acting.
 */
import { normaliseSeverity } from '../severity';
import { at, compact, joinText, presentEntries, text } from '../shape';
import type { EventAction, NativeSender, NormalisedEvent } from '../types';

const RESOURCE_HEADER = 'sentry-hook-resource';

/** Sentry: any request carrying the `sentry-hook-resource` header. */
export const sentrySender: NativeSender = {
  name: 'sentry',
  detect: (_body, headers) => RESOURCE_HEADER in headers,
  normalise: (body, headers) => {
    const action = text(at(body, 'action'));
    switch (headers[RESOURCE_HEADER]) {
      case 'event_alert':
        return [normaliseEventAlert(body)];
      case 'metric_alert':
        return [normaliseMetricAlert(body, action)];
      case 'issue':
        return [normaliseIssue(body, action)];
      default:
        // installation, comment, error, seer ...: acknowledged, nothing to page.
        return [{ source: 'sentry', action: 'ignore', title: `Sentry ${headers[RESOURCE_HEADER] || 'webhook'}`, severity: 'info', dedupKey: null }];
    }
  },
};

function normaliseEventAlert(body: unknown): NormalisedEvent {
  const event = at(body, 'data', 'event');
  return compact<NormalisedEvent>({
    source: 'sentry',
    action: 'trigger',
    title: text(at(event, 'title')) ?? 'Sentry event alert',
    severity: normaliseSeverity(at(event, 'level')),
    dedupKey: text(at(event, 'issue_id')) ?? null,
    message: joinText(text(at(event, 'culprit')), text(at(event, 'web_url'))),
    links: presentEntries({ event: text(at(event, 'web_url')) }),
    metadata: presentEntries({
      rule: text(at(body, 'data', 'triggered_rule')),
      environment: text(at(event, 'environment')),
      release: text(at(event, 'release')),
    }),
  });
}

// Issue webhooks report lifecycle changes; only these three mean "page" or "all clear".
const ISSUE_ACTIONS: Readonly<Record<string, EventAction>> = { created: 'trigger', unresolved: 'trigger', resolved: 'resolve' };

// assigned, archived, ignored: someone is handling it in Sentry, which changes nothing here.
const issueAction = (action: string | undefined): EventAction =>
  action !== undefined && Object.hasOwn(ISSUE_ACTIONS, action) ? ISSUE_ACTIONS[action] : 'ignore';

function normaliseIssue(body: unknown, action: string | undefined): NormalisedEvent {
  const issue = at(body, 'data', 'issue');
  return compact<NormalisedEvent>({
    source: 'sentry',
    action: issueAction(action),
    title: text(at(issue, 'title')) ?? 'Sentry issue',
    severity: normaliseSeverity(at(issue, 'level')),
    dedupKey: text(at(issue, 'id')) ?? null,
    message: joinText(text(at(issue, 'culprit')), text(at(issue, 'web_url'))),
    links: presentEntries({ issue: text(at(issue, 'web_url')) }),
    metadata: presentEntries({ shortId: text(at(issue, 'shortId')), project: text(at(issue, 'project', 'slug')) }),
  });
}

function normaliseMetricAlert(body: unknown, action: string | undefined): NormalisedEvent {
  const alert = at(body, 'data', 'metric_alert');
  const resolved = action === 'resolved';
  return compact<NormalisedEvent>({
    source: 'sentry',
    action: resolved ? 'resolve' : 'trigger',
    title: text(at(alert, 'alert_rule', 'name')) ?? text(at(alert, 'title')) ?? 'Sentry metric alert',
    // The action names the threshold crossed: critical, warning, or resolved.
    severity: resolved ? 'info' : normaliseSeverity(action),
    dedupKey: text(at(alert, 'id')) ?? null,
    message: text(at(body, 'data', 'description_text')),
    links: presentEntries({ alert: text(at(body, 'data', 'web_url')) }),
  });
}
