/** New Relic workflow webhooks using the default payload template. */
import { at, compact, firstEntries, hasKeys, joinText, presentEntries, text } from '../shape';
import type { EventAction, EventSeverity, NativeSender, NormalisedEvent } from '../types';

// New Relic's own priority scale: its HIGH sits below CRITICAL, so it is a warning here
// even though a bare "high" (Zabbix) is critical in the shared table.
const PRIORITY: Readonly<Record<string, EventSeverity>> = { CRITICAL: 'critical', HIGH: 'warning', MEDIUM: 'warning', LOW: 'info' };

// ACKNOWLEDGED and INVESTIGATING are people working in New Relic: nothing new to page.
const STATE_ACTION: Readonly<Record<string, EventAction>> = { CLOSED: 'resolve', ACKNOWLEDGED: 'ignore', INVESTIGATING: 'ignore' };

/** New Relic: the default template's `id`, `issueUrl`, `state` and `priority`. */
export const newRelicSender: NativeSender = {
  name: 'newrelic',
  detect: (body) => hasKeys(body, ['id', 'issueUrl', 'state', 'priority']),
  normalise: (body) => {
    const state = text(at(body, 'state'))?.toUpperCase() ?? '';
    const priority = text(at(body, 'priority'))?.toUpperCase() ?? '';
    return [
      compact<NormalisedEvent>({
        source: 'newrelic',
        // CREATED and ACTIVATED open the issue; unknown states page rather than vanish.
        action: Object.hasOwn(STATE_ACTION, state) ? STATE_ACTION[state] : 'trigger',
        title: text(at(body, 'title')) ?? 'New Relic issue',
        severity: Object.hasOwn(PRIORITY, priority) ? PRIORITY[priority] : 'warning',
        dedupKey: text(at(body, 'id')) ?? null,
        message: joinText(
          namesLine('Conditions', at(body, 'alertConditionNames')),
          namesLine('Policies', at(body, 'alertPolicyNames')),
          text(at(body, 'issueUrl')),
        ),
        links: presentEntries({ issue: text(at(body, 'issueUrl')) }),
        metadata: presentEntries({ state: state || undefined, priority: priority || undefined, workflow: text(at(body, 'workflowName')) }),
      }),
    ];
  },
};

function namesLine(label: string, names: unknown): string | undefined {
  const list = (firstEntries(names) ?? []).map(text).filter((n): n is string => n !== undefined);
  return list.length > 0 ? `${label}: ${list.join(', ')}` : undefined;
}
