/**
 * Datadog Webhooks integration, default payload. The default payload has no stable alert
 * id, so the key is synthesized from the org, the bare title and the scope, which are the
 * same on the Triggered and the Recovered notification.
 */
import { normaliseSeverity } from '../severity';
import { at, compact, hasKeys, isObject, presentEntries, text } from '../shape';
import type { NativeSender, NormalisedEvent } from '../types';

const DEFAULT_KEYS = ['body', 'event_type', 'title', 'last_updated', 'id'] as const;

/** A title split into its `[Transition on {scope}]` prefix and the monitor's own name. */
export interface DatadogTitle {
  transition?: string;
  scope?: string;
  base: string;
}

// "[P1] [Triggered on {host:web-07}] Root volume almost full"; priority and scope optional.
// Anchored, and no two quantifiers can trade characters, so it runs in linear time: the
// base's leading blanks are trimmed after the match rather than by a `\s*` before `(.*)`.
const TITLE = /^(?:\[P\d\]\s*)?\[([^\]{}]+?)(?: on \{([^}]*)\})?\](.*)$/s;

/** Splits a Datadog notification title; a title without prefix is all base. */
export function parseDatadogTitle(title: string): DatadogTitle {
  const match = TITLE.exec(title);
  if (!match) return { base: title };
  return compact<DatadogTitle>({ transition: match[1].trim(), scope: text(match[2]), base: match[3].trim() });
}

/** Datadog: an `org` object and the default template's keys. */
export const datadogSender: NativeSender = {
  name: 'datadog',
  detect: (body) => hasKeys(body, DEFAULT_KEYS) && isObject(body.org),
  normalise: (body) => {
    const title = parseDatadogTitle(text(at(body, 'title')) ?? '');
    // A customised template may carry the real transition and key: prefer them.
    const transition = text(at(body, 'alert_transition')) ?? title.transition ?? '';
    const recovered = /recovered/i.test(transition);
    const base = title.base || 'Datadog alert';
    const synthesized = `${text(at(body, 'org', 'id')) ?? ''}:${base}:${title.scope ?? ''}`;
    return [
      compact<NormalisedEvent>({
        source: 'datadog',
        action: recovered ? 'resolve' : 'trigger',
        title: title.scope ? `${base} (${title.scope})` : base,
        // Triggered → critical, Warn / No Data → warning, Recovered → info.
        severity: recovered ? 'info' : normaliseSeverity(transitionWord(transition)),
        dedupKey: text(at(body, 'aggreg_key')) ?? text(at(body, 'alert_id')) ?? synthesized,
        message: stripMarkdownFence(text(at(body, 'body'))),
        metadata: presentEntries({ transition: transition || undefined, scope: title.scope, eventType: text(at(body, 'event_type')) }),
      }),
    ];
  },
};

// "Re-Triggered" and "Re-Warn" renotify the same state.
const transitionWord = (transition: string): string => transition.replace(/^re-/i, '');

const FENCE = '%%%';

// Datadog wraps markdown bodies in %%% fences. String operations, not `/\s*%%%$/`: that regex
// retries its `\s*` from every blank of a long run, quadratic time on one request (issue 21).
// `body` arrives trimmed and the result is trimmed again, so blanks beside a fence still go.
function stripMarkdownFence(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  const opened = body.startsWith(FENCE) ? body.slice(FENCE.length) : body;
  return text(opened.endsWith(FENCE) ? opened.slice(0, -FENCE.length) : opened);
}
