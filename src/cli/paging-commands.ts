import type { Command } from 'commander';
import { z } from 'zod';
import { audited } from './audit';
import type { Config } from '../config';
import { CHANNEL_IDS } from '../domain/channels';
import { orList } from '../domain/or-list';
import {
  ackTimeoutSecondsField,
  checkAddress,
  contactTypeField,
  emailField,
  labelField,
  nameField,
  repeatField,
  ruleDelaySecondsField,
  stepsField,
  uuidField,
} from '../domain/paging/config';
import type { MikroORM } from '../db/orm';
import {
  addContactMethod,
  addNotificationRule,
  createEscalationPolicy,
  getEscalationPolicy,
  listContactMethods,
  listNotificationRules,
  removeContactMethod,
  removeNotificationRule,
  setServicePolicy,
} from '../services/paging';
import { addTeamMember } from '../services/workspace';
import { output, parseOptions, withDatabase } from './admin';

/** Option strings to whole numbers, then the same range checks the service applies. */
const int = (field: z.ZodNumber) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(field);

const json = z.string().transform((s, ctx) => {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be JSON, e.g. [{"delay_seconds": 60, "targets": [{"type": "user", "id": "…"}]}]' });
    return z.NEVER;
  }
});

/** CLI options of the paging commands; the services check everything again. */
export const pagingSchemas = {
  contactAdd: z
    .object({ user: emailField, type: contactTypeField, address: z.string(), label: labelField.optional(), org: uuidField('a workspace id').optional() })
    .superRefine(checkAddress),
  userOnly: z.object({ user: emailField, org: uuidField('a workspace id').optional() }),
  ruleAdd: z.object({ user: emailField, contact: uuidField('a contact method id'), delaySeconds: int(ruleDelaySecondsField) }),
  policyCreate: z.object({
    org: uuidField('a workspace id'),
    name: nameField,
    steps: json.pipe(stepsField),
    repeat: int(repeatField),
    ackTimeoutSeconds: int(ackTimeoutSecondsField).optional(),
  }),
  servicePolicy: z.object({ service: uuidField('a service id'), policy: uuidField('an escalation policy id') }),
  teamAddMember: z.object({ team: uuidField('a team id'), user: emailField }),
};

/** `klaxon contact|rule|policy|service set-policy|team add-member`: who is paged, and how. */
export function registerPagingCommands(program: Command, getConfig: () => Config): void {
  const run = <T>(fn: (orm: MikroORM) => Promise<T>) => withDatabase(getConfig(), fn);

  const contact = program.command('contact').description("a person's phone numbers, email addresses and devices");
  contact
    .command('add')
    .requiredOption('--user <email>', 'whose contact method')
    .requiredOption('--type <type>', orList(CHANNEL_IDS))
    .requiredOption('--address <address>', 'E.164 number (+14155550100), email address or device token')
    .option('--label <label>', 'a name people recognise, e.g. "work phone"')
    .option('--org <id>', 'the workspace, when the user is a member of several')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(pagingSchemas.contactAdd, raw);
      output(
        await run((orm) =>
          audited(
            orm,
            {
              action: 'contact_method.create',
              targetType: 'contact_method',
              table: 'contact_methods',
              idOf: (r) => r.id,
              details: (r) => ({ user: o.user, type: r.type }),
            },
            () => addContactMethod(orm, { email: o.user, type: o.type, address: o.address, label: o.label, organizationId: o.org }),
          ),
        ),
        raw.json,
      );
    });
  contact
    .command('list')
    .requiredOption('--user <email>', 'whose contact methods')
    .option('--org <id>', 'only this workspace')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(pagingSchemas.userOnly, raw);
      output({ contact_methods: await run((orm) => listContactMethods(orm, { email: o.user, organizationId: o.org })) }, raw.json);
    });
  contact
    .command('remove <id>')
    .description('remove a contact method and its notification rules')
    .option('--json', 'print one JSON object')
    .action(async (id: string, raw) =>
      output(
        await run((orm) =>
          audited(orm, { action: 'contact_method.delete', targetType: 'contact_method', table: 'contact_methods', id }, () => removeContactMethod(orm, { id })),
        ),
        raw.json,
      ),
    );

  const rule = program.command('rule').description('notification rules: which contact method, how long after a page');
  rule
    .command('add')
    .requiredOption('--user <email>', 'whose rule')
    .requiredOption('--contact <id>', 'one of their contact methods')
    .requiredOption('--delay-seconds <n>', 'seconds after the page, 0 to 86400')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(pagingSchemas.ruleAdd, raw);
      output(
        await run((orm) =>
          audited(
            orm,
            {
              action: 'notification_rule.create',
              targetType: 'notification_rule',
              table: 'notification_rules',
              idOf: (r) => r.id,
              details: () => ({ user: o.user, contact_method_id: o.contact, delay_seconds: o.delaySeconds }),
            },
            () => addNotificationRule(orm, { email: o.user, contactMethodId: o.contact, delaySeconds: o.delaySeconds }),
          ),
        ),
        raw.json,
      );
    });
  rule
    .command('list')
    .requiredOption('--user <email>', 'whose rules')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(pagingSchemas.userOnly, raw);
      output({ rules: await run((orm) => listNotificationRules(orm, { email: o.user })) }, raw.json);
    });
  rule
    .command('remove <id>')
    .option('--json', 'print one JSON object')
    .action(async (id: string, raw) =>
      output(
        await run((orm) =>
          audited(orm, { action: 'notification_rule.delete', targetType: 'notification_rule', table: 'notification_rules', id }, () =>
            removeNotificationRule(orm, { id }),
          ),
        ),
        raw.json,
      ),
    );

  const policy = program.command('policy').description('escalation policies');
  policy
    .command('create')
    .requiredOption('--org <id>', 'workspace id')
    .requiredOption('--name <name>', 'a name people recognise')
    .requiredOption('--steps <json>', 'e.g. [{"delay_seconds": 60, "targets": [{"type": "user", "id": "…"}]}]; types: user, schedule, team')
    .option('--repeat <n>', 'how many more times to run all steps, 0 to 9', '0')
    .option('--ack-timeout-seconds <n>', 'return an acknowledged incident to triggered after this long')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(pagingSchemas.policyCreate, raw);
      const input = { organizationId: o.org, name: o.name, steps: o.steps, repeat: o.repeat, ackTimeoutSeconds: o.ackTimeoutSeconds };
      output(
        await run((orm) =>
          audited(
            orm,
            {
              action: 'escalation_policy.create',
              targetType: 'escalation_policy',
              table: 'escalation_policies',
              idOf: (r) => r.id,
              details: () => ({ name: o.name }),
            },
            () => createEscalationPolicy(orm, input),
          ),
        ),
        raw.json,
      );
    });
  policy
    .command('show <id>')
    .option('--json', 'print one JSON object')
    .action(async (id: string, raw) => output(await run((orm) => getEscalationPolicy(orm, id)), raw.json));

  program
    .command('service')
    .description('services')
    .command('set-policy')
    .description('page with this escalation policy when an incident opens on the service')
    .requiredOption('--service <id>', 'service id')
    .requiredOption('--policy <id>', 'escalation policy id, in the same workspace')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(pagingSchemas.servicePolicy, raw);
      output(
        await run((orm) =>
          audited(
            orm,
            { action: 'service.update', targetType: 'service', table: 'services', id: o.service, details: () => ({ escalation_policy_id: o.policy }) },
            () => setServicePolicy(orm, { serviceId: o.service, policyId: o.policy }),
          ),
        ),
        raw.json,
      );
    });

  program
    .command('team')
    .description('teams')
    .command('add-member')
    .description('page this person when a step targets the team (adding twice changes nothing)')
    .requiredOption('--team <id>', 'team id')
    .requiredOption('--user <email>', 'a member of the team’s workspace')
    .option('--json', 'print one JSON object')
    .action(async (raw) => {
      const o = parseOptions(pagingSchemas.teamAddMember, raw);
      output(
        await run((orm) =>
          audited(orm, { action: 'team.member_add', targetType: 'team', table: 'teams', id: o.team, details: () => ({ user: o.user }) }, () =>
            addTeamMember(orm, { teamId: o.team, email: o.user }),
          ),
        ),
        raw.json,
      );
    });
}
