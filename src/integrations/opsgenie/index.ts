/**
 * Opsgenie as Klaxon's registry lists it (src/integrations/registry.ts): an intake that speaks its
 * Alert API v2 (docs/compat-intake.md) and an importer of its accounts (docs/importers.md).
 */
import type { ProviderModule } from '../types';
import { OPSGENIE_API_URL, opsgenieHeaders, readOpsgenie } from './import-client';
import { mapOpsgenie } from './import-map';
import { opsgenieIntake } from './intake';

export const opsgenie: ProviderModule = {
  intake: opsgenieIntake,
  importer: {
    system: 'opsgenie',
    label: 'Opsgenie',
    defaultUrl: OPSGENIE_API_URL,
    headers: opsgenieHeaders,
    read: async (http, { now }) => mapOpsgenie(await readOpsgenie(http), { now }),
    credential: { field: 'api_key', option: '--api-key <key>', help: 'an Opsgenie API key (an API integration’s key with read access)' },
    apiUrlHelp: 'the REST API base URL (https://api.eu.opsgenie.com for the EU instance)',
    brings: 'users, teams, schedules, escalations and services',
    operationId: 'importOpsgenie',
  },
};
