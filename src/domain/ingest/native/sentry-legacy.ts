/** The legacy Sentry "WebHooks" plugin: one POST per alerting event, no resolves. */
import { normaliseSeverity } from '../severity';
import { at, compact, hasKeys, joinText, presentEntries, text } from '../shape';
import type { NativeSender, NormalisedEvent } from '../types';

const PLUGIN_KEYS = ['id', 'project', 'culprit', 'level', 'url', 'triggering_rules', 'event'] as const;

/** Legacy Sentry plugin: `sentry-webhooks/*` user agent and the plugin's body keys. */
export const sentryLegacySender: NativeSender = {
  name: 'sentry-legacy',
  detect: (body, headers) => (headers['user-agent'] ?? '').toLowerCase().startsWith('sentry-webhooks/') && hasKeys(body, PLUGIN_KEYS),
  normalise: (body) => [
    compact<NormalisedEvent>({
      source: 'sentry',
      action: 'trigger',
      title: text(at(body, 'event', 'title')) ?? text(at(body, 'message')) ?? text(at(body, 'culprit')) ?? 'Sentry alert',
      severity: normaliseSeverity(at(body, 'level')),
      dedupKey: text(at(body, 'id')) ?? null,
      message: joinText(text(at(body, 'culprit')), text(at(body, 'url'))),
      links: presentEntries({ issue: text(at(body, 'url')) }),
      metadata: presentEntries({ project: text(at(body, 'project_slug')) ?? text(at(body, 'project')) }),
    }),
  ],
};
