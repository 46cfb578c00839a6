import type { PlannedContactMethod, PlannedNotificationRule, PlannedUser } from '../../domain/importers/plan';
import { CHANNELS } from '../../domain/channels';
import { CONTACT_COLUMNS, type ContactRow } from '../paging/contact-rows';
import { reviseImportedContactMethod, writeContactMethod } from '../paging/contacts';
import { removeNotificationRule, writeRule } from '../paging/notification-rules';
import { type ImportRun } from './run-context';

/**
 * Contact methods and notification rules of an import (docs/importers.md, "Contact methods and
 * rules"): each person's ways of being paged, verified at once and marked `source: "import"`,
 * and the rules that page on them. Matched by the source's ids on a re-run; a contact method the
 * person already has in Klaxon (same channel and address) is taken as it is.
 */

/** People by external id, for names in the report. */
const namesOf = (users: PlannedUser[]) => new Map(users.map((u) => [u.externalId, u.name]));

/** Why a person's contacts do not come, or null when they are a member who can be paged (their Klaxon id). */
function personOf(run: ImportRun, userExt: string): { id: string } | { why: string } {
  const out = run.leftOut.get(userExt);
  if (out) return { why: `${out.why}: their contact methods and rules are not brought in` };
  const id = run.ids.user.get(userExt);
  return id ? { id } : { why: `its person ${userExt} was not brought in (see their own entry)` };
}

type Row = Pick<ContactRow, 'id' | 'organization_id' | 'user_id' | 'type' | 'address' | 'label'>;

export async function applyContactMethods(run: ImportRun, methods: PlannedContactMethod[], users: PlannedUser[]): Promise<void> {
  const names = namesOf(users);
  const emails = new Map(users.map((u) => [u.externalId, u.email]));
  const userIds = [...new Set(methods.map((m) => run.ids.user.get(m.user)).filter((id): id is string => Boolean(id)))].filter(
    (id) => !id.startsWith('pending:'),
  );
  // Every contact method these people have, in any workspace: the (user, type, address) triple is unique across them.
  const rows: Row[] = userIds.length ? await run.knex('contact_methods').select(CONTACT_COLUMNS).whereIn('user_id', userIds) : [];
  for (const m of methods) {
    const label = CHANNELS[m.type].label;
    const name = `${names.get(m.user) ?? m.user} / ${m.label ?? label} (${m.address})`;
    const person = personOf(run, m.user);
    if ('why' in person) {
      run.skip('contact_method', m.externalId, name, person.why);
      continue;
    }
    const mappedId = run.mapped('contact_method', m.externalId);
    const current = mappedId ? rows.find((r) => r.id === mappedId && r.organization_id === run.organizationId) : undefined;
    if (current && current.type === m.type) {
      if (current.address !== m.address || current.label !== m.label) {
        const other = rows.find((r) => r.user_id === person.id && r.type === m.type && r.address === m.address && r.id !== current.id);
        if (other) {
          run.skip('contact_method', m.externalId, name, `its new address is another contact method of theirs already (${other.id}): the old one stays`);
          run.resolve('contact_method', m.externalId, current.id, name);
          continue;
        }
        if (!run.dryRun)
          await run.knex.transaction((trx) =>
            reviseImportedContactMethod(trx, { id: current.id, address: m.address, label: m.label }, { actor: run.actor.audit }),
          );
        Object.assign(current, { address: m.address, label: m.label });
        run.report.updated.contact_method++;
      }
      run.resolve('contact_method', m.externalId, current.id, name);
      continue;
    }
    const same = rows.find((r) => r.user_id === person.id && r.type === m.type && r.address === m.address);
    if (same) {
      if (same.organization_id !== run.organizationId) {
        run.skip('contact_method', m.externalId, name, 'it is a contact method of theirs in another workspace already, and one address pages one workspace');
        continue;
      }
      // Theirs already (made in Klaxon, or by an earlier import under another id): taken as it is.
      await run.remember('contact_method', m.externalId, same.id);
      run.resolve('contact_method', m.externalId, same.id, name);
      continue;
    }
    if (run.dryRun) {
      const id = run.pending('contact_method', m.externalId);
      rows.push({ id, organization_id: run.organizationId, user_id: person.id, type: m.type, address: m.address, label: m.label });
      run.report.created.contact_method++;
      run.resolve('contact_method', m.externalId, id, name);
      continue;
    }
    await run.attempt('contact_method', m.externalId, name, async () => {
      const created = await run.knex.transaction((trx) =>
        writeContactMethod(
          trx,
          {
            organizationId: run.organizationId,
            userId: person.id,
            email: emails.get(m.user) ?? m.user,
            type: m.type,
            address: m.address,
            label: m.label,
            source: 'import',
          },
          { actor: run.actor.audit },
        ),
      );
      rows.push(created);
      await run.remember('contact_method', m.externalId, created.id);
      run.report.created.contact_method++;
      run.resolve('contact_method', m.externalId, created.id, name);
    });
  }
}

export async function applyNotificationRules(run: ImportRun, rules: PlannedNotificationRule[], users: PlannedUser[]): Promise<void> {
  const names = namesOf(users);
  const methodIds = [...new Set(rules.map((r) => run.ids.contact_method.get(r.contactMethod)).filter((id): id is string => Boolean(id)))].filter(
    (id) => !id.startsWith('pending:'),
  );
  const existing: Array<{ id: string; contact_method_id: string; delay_seconds: number }> = methodIds.length
    ? await run.knex('notification_rules').select('id', 'contact_method_id', 'delay_seconds').whereIn('contact_method_id', methodIds)
    : [];
  for (const r of rules) {
    const person = personOf(run, r.user);
    const minutes = r.delaySeconds / 60;
    const name = `${names.get(r.user) ?? r.user} / ${minutes === 0 ? 'at once' : `after ${minutes} min`}`;
    if ('why' in person) {
      run.skip('notification_rule', r.externalId, name, person.why);
      continue;
    }
    const contactId = run.ids.contact_method.get(r.contactMethod);
    if (!contactId) {
      run.skip('notification_rule', r.externalId, name, `its contact method ${r.contactMethod} was not brought in (see its own entry)`);
      continue;
    }
    const mappedId = run.mapped('notification_rule', r.externalId);
    const current = mappedId ? existing.find((e) => e.id === mappedId) : undefined;
    if (current && current.contact_method_id === contactId && current.delay_seconds === r.delaySeconds) {
      run.resolve('notification_rule', r.externalId, current.id, name);
      continue;
    }
    const same = existing.find((e) => e.contact_method_id === contactId && e.delay_seconds === r.delaySeconds);
    if (same) {
      // One rule per contact method and delay: two of the source's on the same one page once.
      await run.remember('notification_rule', r.externalId, same.id);
      run.resolve('notification_rule', r.externalId, same.id, name);
      continue;
    }
    if (run.dryRun) {
      const id = run.pending('notification_rule', r.externalId);
      existing.push({ id, contact_method_id: contactId, delay_seconds: r.delaySeconds });
      if (current) run.report.updated.notification_rule++;
      else run.report.created.notification_rule++;
      run.resolve('notification_rule', r.externalId, id, name);
      continue;
    }
    await run.attempt('notification_rule', r.externalId, name, async () => {
      // A changed delay or contact method at the source: the rule is made again.
      if (current) await removeNotificationRule(run.deps.orm, { id: current.id, organizationId: run.organizationId }, { actor: run.actor.audit });
      const contact = await run.knex('contact_methods').select('id', 'organization_id', 'user_id', 'type').where({ id: contactId }).first();
      const created = await run.knex.transaction((trx) => writeRule(trx, contact, r.delaySeconds, { actor: run.actor.audit }));
      existing.push(created);
      await run.remember('notification_rule', r.externalId, created.id);
      if (current) run.report.updated.notification_rule++;
      else run.report.created.notification_rule++;
      run.resolve('notification_rule', r.externalId, created.id, name);
    });
  }
}
