/**
 * PagerDuty as Klaxon's registry lists it (src/integrations/registry.ts): an intake that speaks its
 * Events API v2 (docs/compat-intake.md) and an importer of its accounts (docs/importers.md).
 */
import type { ProviderModule } from '../types';
import { PAGERDUTY_API_URL, pagerDutyHeaders, readPagerDuty } from './import-client';
import { mapPagerDuty } from './import-map';
import { pagerDutyIntake } from './intake';

export const pagerduty: ProviderModule = {
  intake: pagerDutyIntake,
  importer: {
    system: 'pagerduty',
    label: 'PagerDuty',
    defaultUrl: PAGERDUTY_API_URL,
    headers: pagerDutyHeaders,
    read: async (http, { now }) => mapPagerDuty(await readPagerDuty(http, { now }), { now }),
    credential: { field: 'api_token', option: '--api-token <token>', help: 'a PagerDuty REST API token (read access is enough)' },
    apiUrlHelp: 'the REST API base URL',
    brings: 'users, teams, schedules, escalation policies and services',
    operationId: 'importPagerDuty',
  },
};
