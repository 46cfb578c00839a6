import { opsgenieRole, pagerDutyRole } from '../../../src/domain/importers/roles';
import { phoneOf } from '../../../src/domain/importers/contacts';
import { mapOpsgenie } from '../../../src/integrations/opsgenie/import-map';
import type { OpsgenieData } from '../../../src/integrations/opsgenie/import-schemas';
import { mapPagerDuty } from '../../../src/integrations/pagerduty/import-map';
import type { PagerDutyData, PdContactMethod, PdNotificationRule } from '../../../src/integrations/pagerduty/import-schemas';

// People's roles, contact methods and high-urgency rules as an import plans them (docs/importers.md, "People", "Contact methods and rules").
const NOW = new Date('2026-11-27T00:00:00Z');
const empty = { teams: [], schedules: [], escalationPolicies: [], services: [] };

const pdMethod = (id: string, type: string, address: string, more: Partial<PdContactMethod> = {}): PdContactMethod => ({
  id,
  type,
  label: 'Mobile',
  address,
  ...more,
});
const pdRule = (id: string, minutes: number, method: string, urgency = 'high'): PdNotificationRule => ({
  id,
  start_delay_in_minutes: minutes,
  urgency,
  contact_method: { id: method, type: 'sms_contact_method_reference' },
});

describe('roles of new members', () => {
  it.each([
    ['owner', [], 'ACCOUNT_ADMIN'],
    ['admin', [], 'ACCOUNT_ADMIN'],
    ['user', ['manager'], 'TEAM_MANAGER'],
    ['limited_user', ['responder'], 'MEMBER'],
    ['user', [], 'MEMBER'],
    ['observer', [], 'STAKEHOLDER'],
    ['read_only_user', ['manager'], 'STAKEHOLDER'],
    ['read_only_limited_user', [], 'STAKEHOLDER'],
  ] as const)('when PagerDuty says %s with team roles %j, then the new member is %s', (role, teamRoles, expected) => {
    expect(pagerDutyRole(role, teamRoles)).toEqual({ role: expected });
  });

  it('when PagerDuty has a role Klaxon does not know, then the person is a Member and the report says so', () => {
    expect(pagerDutyRole('restricted_access', [])).toEqual({ role: 'MEMBER', note: expect.stringMatching(/restricted_access.*a Member/) });
  });

  it.each([
    ['Owner', 'ACCOUNT_ADMIN'],
    ['Admin', 'ACCOUNT_ADMIN'],
    ['User', 'MEMBER'],
    ['Stakeholder', 'STAKEHOLDER'],
  ] as const)('when Opsgenie says %s, then the new member is %s', (role, expected) => {
    expect(opsgenieRole(role)).toEqual({ role: expected });
  });
});

describe('PagerDuty contact methods and notification rules', () => {
  const plan = () =>
    mapPagerDuty(
      {
        ...empty,
        users: [
          {
            id: 'PA',
            name: 'Ann',
            email: 'ann@example.com',
            role: 'user',
            contact_methods: [
              pdMethod('C1', 'sms_contact_method', '(415) 555-0100', { country_code: 1, enabled: true }),
              pdMethod('C2', 'phone_contact_method', '15123456789', { country_code: 49 }),
              pdMethod('C3', 'email_contact_method', 'Ann@Example.com'),
              pdMethod('C4', 'push_notification_contact_method', 'fcbaba06'),
              pdMethod('C5', 'sms_contact_method', '4155550199', { country_code: 1, blacklisted: true }),
            ],
            notification_rules: [pdRule('R1', 0, 'C1'), pdRule('R2', 5, 'C2'), pdRule('R3', 0, 'C3', 'low'), pdRule('R4', 0, 'C4'), pdRule('R5', 2000, 'C3')],
          },
        ],
      } as PagerDutyData,
      { now: NOW },
    );

  it('when a user has phone, SMS and email methods, then they are voice, sms and email in E.164 and lower case', () => {
    expect(plan().contactMethods).toEqual([
      { externalId: 'PA/C1', user: 'PA', type: 'sms', address: '+14155550100', label: 'Mobile' },
      { externalId: 'PA/C2', user: 'PA', type: 'voice', address: '+4915123456789', label: 'Mobile' },
      { externalId: 'PA/C3', user: 'PA', type: 'email', address: 'ann@example.com', label: 'Mobile' },
    ]);
  });

  it('when rules are high urgency on a method that came, then their start delay is the rule delay; the others are skipped with why', () => {
    const p = plan();
    expect(p.notificationRules).toEqual([
      { externalId: 'PA/R1', user: 'PA', contactMethod: 'PA/C1', delaySeconds: 0 },
      { externalId: 'PA/R2', user: 'PA', contactMethod: 'PA/C2', delaySeconds: 300 },
    ]);
    const why = (id: string) => p.skipped.find((s) => s.external_id === id)?.why;
    expect(why('PA/C4')).toMatch(/push to PagerDuty's mobile app/);
    expect(why('PA/C5')).toMatch(/blacklisted/);
    expect(why('PA/R3')).toMatch(/low-urgency rule/);
    expect(why('PA/R4')).toMatch(/contact method C4 was not brought in/);
    expect(why('PA/R5')).toMatch(/waits 2000 minutes/);
  });
});

describe('Opsgenie contacts and notification rules', () => {
  it('when a user has contacts and a new-alert rule with steps, then its enabled steps on imported contacts become rules', () => {
    const step = (id: string, method: string, to: string, minutes: number, enabled = true) => ({
      id,
      sendAfter: { timeAmount: minutes, timeUnit: 'minutes' },
      contact: { method, to },
      enabled,
    });
    const data = {
      ...empty,
      escalations: [],
      integrations: [],
      users: [
        {
          id: 'U',
          username: 'ann@example.com',
          fullName: 'Ann',
          role: { name: 'User' },
          contacts: [
            { id: 'S', method: 'sms', to: '1-4155550100', status: { enabled: true } },
            { id: 'V', method: 'voice', to: '1-4155550100', status: { enabled: true } },
            { id: 'M', method: 'mobile', to: 'Ann phone', status: { enabled: true } },
            { id: 'E', method: 'email', to: 'ann@example.com', status: { enabled: false, disabledReason: 'bounced' } },
          ],
          notificationRules: [
            {
              id: 'N',
              name: 'New Alert',
              actionType: 'create-alert',
              enabled: true,
              steps: [
                step('1', 'sms', '1-4155550100', 0),
                step('2', 'voice', '1-4155550100', 5),
                step('3', 'mobile', 'Ann phone', 0),
                step('4', 'sms', '1-4155550100', 9, false),
              ],
            },
            { id: 'K', name: 'Acked', actionType: 'acknowledged-alert', enabled: true, steps: [] },
          ],
        },
      ],
    } as unknown as OpsgenieData;
    const plan = mapOpsgenie(data, { now: NOW });
    expect(plan.users).toEqual([{ externalId: 'U', name: 'Ann', email: 'ann@example.com', role: 'MEMBER' }]);
    expect(plan.contactMethods.map((m) => [m.externalId, m.type, m.address])).toEqual([
      ['U/S', 'sms', '+14155550100'],
      ['U/V', 'voice', '+14155550100'],
    ]);
    expect(plan.notificationRules).toEqual([
      { externalId: 'U/N/1', user: 'U', contactMethod: 'U/S', delaySeconds: 0 },
      { externalId: 'U/N/2', user: 'U', contactMethod: 'U/V', delaySeconds: 300 },
    ]);
    const why = (id: string) => plan.skipped.find((s) => s.external_id === id)?.why;
    expect(why('U/M')).toMatch(/Opsgenie's mobile app/);
    expect(why('U/E')).toMatch(/disabled in Opsgenie \(bounced\)/);
    expect(why('U/N/3')).toMatch(/mobile contact was not brought in/);
    expect(why('U/N/4')).toMatch(/step is disabled/);
    expect(why('U/K')).toMatch(/acknowledged-alert/);
  });

  it('when numbers come as PagerDuty or Opsgenie keep them, then they are E.164', () => {
    expect(phoneOf(1, '202-555-0101')).toBe('+12025550101');
    expect(phoneOf(44, '07700 900123')).toBe('+447700900123');
    expect(phoneOf(null, '49-15123456711')).toBe('+4915123456711');
  });
});
