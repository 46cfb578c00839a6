/** Azure Monitor action groups with the common alert schema enabled. */
import { normaliseSeverity } from '../severity';
import { at, compact, firstEntries, isObject, presentEntries, text } from '../shape';
import type { NativeSender, NormalisedEvent } from '../types';

/** Azure Monitor: `schemaId` "azureMonitorCommonAlertSchema". */
export const azureMonitorSender: NativeSender = {
  name: 'azure-monitor',
  detect: (body) => isObject(body) && body.schemaId === 'azureMonitorCommonAlertSchema',
  normalise: (body) => {
    const essentials = at(body, 'data', 'essentials');
    // The common schema's configurationItems are resource names: strings are kept, anything else is not read.
    const targets = firstEntries(at(essentials, 'configurationItems'))
      ?.map(text)
      .filter((t): t is string => t !== undefined);
    return [
      compact<NormalisedEvent>({
        source: 'azure-monitor',
        action: text(at(essentials, 'monitorCondition')) === 'Resolved' ? 'resolve' : 'trigger',
        title: text(at(essentials, 'alertRule')) ?? 'Azure Monitor alert',
        // Sev0-1 critical, Sev2 warning, Sev3-4 info (README table).
        severity: normaliseSeverity(at(essentials, 'severity')),
        dedupKey: text(at(essentials, 'alertId')) ?? null,
        message: text(at(essentials, 'description')),
        metadata: {
          ...presentEntries({
            signalType: text(at(essentials, 'signalType')),
            monitoringService: text(at(essentials, 'monitoringService')),
            resourceGroup: text(at(essentials, 'targetResourceGroup')),
            resourceType: text(at(essentials, 'targetResourceType')),
          }),
          ...(targets ? { configurationItems: targets } : {}),
        },
      }),
    ];
  },
};
