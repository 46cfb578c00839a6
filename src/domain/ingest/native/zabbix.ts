/**
 * Zabbix, through the suggested webhook media type (fixtures zabbix/media_type.yaml):
 * Zabbix has no outbound JSON of its own, so these field names are ours.
 */
import { zabbixSeverity, normaliseSeverity } from '../severity';
import { compact, hasKeys, isObject, presentEntries, text, type JsonObject } from '../shape';
import type { EventAction, NativeSender, NormalisedEvent } from '../types';

// A macro Zabbix had no value for arrives verbatim, e.g. "{EVENT.RECOVERY.ID}" in a problem.
const UNEXPANDED_MACRO = /^\{\$?[A-Z][A-Z0-9_.]*\}$/;

/** A media-type parameter as text; unexpanded macros and blanks read as absent. */
export function zabbixValue(body: JsonObject, key: string): string | undefined {
  const value = text(body[key]);
  return value === undefined || UNEXPANDED_MACRO.test(value) ? undefined : value;
}

/** Zabbix: the media type's `event_id`, `event_value` and `event_source`. */
export const zabbixSender: NativeSender = {
  name: 'zabbix',
  detect: (body) => hasKeys(body, ['event_id', 'event_value', 'event_source']),
  normalise: (body) => {
    if (!isObject(body)) return [];
    const field = (key: string) => zabbixValue(body, key);
    const nseverity = field('event_nseverity');
    return [
      compact<NormalisedEvent>({
        source: 'zabbix',
        action: zabbixAction(field('event_value'), field('event_update_status')),
        title: field('event_name') ?? field('alert_subject') ?? 'Zabbix problem',
        severity: nseverity !== undefined ? zabbixSeverity(nseverity) : normaliseSeverity(field('event_severity')),
        dedupKey: field('event_id') ?? null,
        message: field('alert_message'),
        description: field('trigger_description'),
        links: presentEntries({ zabbix: field('zabbix_url') }),
        metadata: presentEntries({
          host: field('host_name'),
          hostIp: field('host_ip'),
          tags: field('event_tags'),
          opdata: field('event_opdata'),
          recoveryEventId: field('event_recovery_id'),
        }),
      }),
    ];
  },
};

// Update operations (acknowledge, comment, severity change) arrive with update status 1
// and the problem's value: acknowledge them, create nothing. Value 0 is the recovery.
function zabbixAction(eventValue: string | undefined, updateStatus: string | undefined): EventAction {
  if (updateStatus === '1') return 'ignore';
  return eventValue === '0' ? 'resolve' : 'trigger';
}
