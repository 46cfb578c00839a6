/**
 * Opsgenie's Alert API v2, as a sender speaks it to Klaxon (docs/compat-intake.md): create, close
 * and acknowledge bodies turned into ingestion items, or the errors Opsgenie would answer (422,
 * each naming its field). Pure: the routes (src/integrations/opsgenie/intake.ts) find the source by its
 * GenieKey and commit.
 *
 * Opsgenie cuts text longer than its limits instead of refusing it (Alertmanager sends messages
 * cut to 130 runes for that reason), so every text field is cut here too; only a missing message
 * or a field of the wrong type is refused.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { isUuid } from '../../domain/ids';
import type { IngestItem } from '../../domain/ingest/plan';
import { INGEST_LIMITS } from '../../domain/ingest/limits';
import { storableJson, storableText } from '../../domain/ingest/storable-text';
import type { Severity } from '../../domain/severity';
import { normaliseRoutingKey } from '../../domain/routing-key';

/** The `sender` of the alerts it stores: a close by alias only closes alerts of the same sender. */
export const OPSGENIE_SENDER = 'opsgenie-alert-api';

/** Opsgenie's documented limits (characters; tags and actions: entries × characters; details: characters in all). */
export const ALERT_API_LIMITS = {
  message: 130,
  alias: 512,
  description: 15_000,
  tags: 20,
  tag: 50,
  details: 8000,
  entity: 512,
  source: 100,
  user: 100,
  note: 25_000,
  actions: 10,
  action: 50,
} as const;

/** P1 to P5 on the incident scale; P3 when absent, as Opsgenie defaults it. */
const PRIORITY: Readonly<Record<string, Severity>> = { P1: 'CRITICAL', P2: 'CRITICAL', P3: 'MEDIUM', P4: 'INFO', P5: 'INFO' };
export const DEFAULT_PRIORITY = 'P3';

/** The one message Opsgenie answers a create without a message with. */
export const MESSAGE_EMPTY = 'Message can not be empty.';

// A field of the wrong type is refused (422 naming it); text is cut to Opsgenie's limit after.
const text = (label: string) => z.string({ error: `${label} must be a string.` }).nullish();
const strings = (label: string) =>
  z.array(z.string({ error: `${label} must be a list of strings.` }), { error: `${label} must be a list of strings.` }).nullish();
const detailValue = z.union([z.string(), z.number(), z.boolean()], { error: 'Details must be an object of strings.' }).transform(String);

const NOT_AN_OBJECT = { error: 'Request body must be a JSON object.' };

const createSchema = z.object(
  {
    message: z.string({ error: MESSAGE_EMPTY }).refine((m) => m.trim() !== '', MESSAGE_EMPTY),
    alias: text('Alias'),
    description: text('Description'),
    tags: strings('Tags'),
    details: z.record(z.string(), detailValue, { error: 'Details must be an object of strings.' }).nullish(),
    entity: text('Entity'),
    source: text('Source'),
    priority: z
      .string({ error: 'Priority must be one of P1, P2, P3, P4, P5.' })
      .refine((p) => Object.hasOwn(PRIORITY, p.trim().toUpperCase()), 'Priority must be one of P1, P2, P3, P4, P5.')
      .nullish(),
    user: text('User'),
    note: text('Note'),
    actions: strings('Actions'),
    // Who Opsgenie would notify: Klaxon pages by the service's escalation policy instead.
    responders: z.unknown().optional(),
    visibleTo: z.unknown().optional(),
  },
  NOT_AN_OBJECT,
);

// An empty body reads as {} (api/ingest/body.ts): Alertmanager's close sends {"source": ""}, curl often nothing.
const actionSchema = z.object({ user: text('User'), source: text('Source'), note: text('Note') }, NOT_AN_OBJECT);

/** A refusal as Opsgenie words it: one message, and each field's reason. */
export interface AlertApiRefusal {
  message: string;
  errors: Record<string, string>;
}

export type CreateResult = { ok: true; item: IngestItem; alias: string | null } | ({ ok: false } & AlertApiRefusal);

/** Reads a create-alert body into a trigger: message as the title, alias as the dedup key. */
export function parseCreateAlert(body: unknown): CreateResult {
  const read = createSchema.safeParse(body);
  if (!read.success) return refusal(read.error);
  const b = read.data;
  const alias = b.alias ? cut(b.alias, ALERT_API_LIMITS.alias) : null;
  const priority = b.priority ? b.priority.trim().toUpperCase() : DEFAULT_PRIORITY;
  const metadata = storableJson(
    present({
      alias,
      priority,
      tags: b.tags?.slice(0, ALERT_API_LIMITS.tags).map((t) => cut(t, ALERT_API_LIMITS.tag)),
      details: b.details ? cutDetails(b.details) : undefined,
      entity: b.entity ? cut(b.entity, ALERT_API_LIMITS.entity) : undefined,
      source: b.source ? cut(b.source, ALERT_API_LIMITS.source) : undefined,
      user: b.user ? cut(b.user, ALERT_API_LIMITS.user) : undefined,
      note: b.note ? cut(b.note, ALERT_API_LIMITS.note) : undefined,
      actions: b.actions?.slice(0, ALERT_API_LIMITS.actions).map((a) => cut(a, ALERT_API_LIMITS.action)),
    }),
  );
  const item: IngestItem = {
    action: 'trigger',
    title: cut(b.message.trim(), ALERT_API_LIMITS.message),
    message: null,
    description: b.description ? cut(b.description, ALERT_API_LIMITS.description) : null,
    severity: PRIORITY[priority],
    dedupKey: alias === null ? null : dedupKeyOfAlias(alias),
    sender: OPSGENIE_SENDER,
    metadata,
  };
  return { ok: true, item, alias };
}

/** How an alert is named in a close or acknowledge: Opsgenie's `identifierType` (default `id`). */
export type IdentifierType = 'id' | 'alias';

/** The query's identifierType: id (the default) or alias; Klaxon keeps no tiny ids. */
export function parseIdentifierType(value: unknown): { ok: true; type: IdentifierType } | ({ ok: false } & AlertApiRefusal) {
  if (value === undefined || value === 'id' || value === 'alias') return { ok: true, type: value ?? 'id' };
  const why =
    value === 'tiny'
      ? 'identifierType tiny is not supported: Klaxon keeps no tiny ids; use id (the alert id) or alias.'
      : 'identifierType must be one of id, alias.';
  return { ok: false, message: why, errors: { identifierType: why } };
}

export type ActionResult = { ok: true; item: IngestItem } | ({ ok: false } & AlertApiRefusal);

/**
 * Reads a close or acknowledge of the alert `identifier` names: a resolve or acknowledge by alias
 * (the dedup key) or by id (a Klaxon alert id; anything else names no alert, and changes nothing,
 * as Opsgenie processes a close of an unknown alert and reports it failed).
 */
export function parseAlertAction(action: 'close' | 'acknowledge', identifier: string, type: IdentifierType, body: unknown): ActionResult {
  const read = actionSchema.safeParse(body);
  if (!read.success) return refusal(read.error);
  const user = read.data.user ? cut(read.data.user, ALERT_API_LIMITS.user) : undefined;
  const target =
    type === 'alias'
      ? { dedupKey: dedupKeyOfAlias(cut(identifier, ALERT_API_LIMITS.alias)) }
      : { dedupKey: null, alertId: isUuid(identifier) ? identifier.toLowerCase() : null };
  return {
    ok: true,
    item: {
      action: action === 'close' ? 'resolve' : 'acknowledge',
      title: '',
      message: null,
      description: null,
      severity: 'INFO',
      sender: OPSGENIE_SENDER,
      metadata: {},
      ...target,
      ...(action === 'acknowledge' ? { detail: `via Opsgenie Alert API${user ? ` by ${user}` : ''}` } : {}),
    },
  };
}

/** The key a `GenieKey <key>` Authorization header presents (the source's routing key, dashes or not); undefined when there is none. */
export function genieKeyOf(authorization: string | undefined): string | undefined {
  if (!authorization || authorization.length > 100) return undefined;
  const space = authorization.indexOf(' ');
  if (space < 0 || authorization.slice(0, space).toLowerCase() !== 'geniekey') return undefined;
  return normaliseRoutingKey(authorization.slice(space + 1).trim());
}

/**
 * An alias as a dedup key: as it is when it fits the column, else its SHA-256 (a create and a
 * close of one long alias still meet on one key).
 */
export function dedupKeyOfAlias(alias: string): string {
  const key = storableText(alias);
  return key.length <= INGEST_LIMITS.dedupKey ? key : `alias-sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** Text cut to a limit and made storable (a cut can split a surrogate pair). */
const cut = (value: string, max: number): string => storableText(value.slice(0, max));

/** Details cut to Opsgenie's limit on all of them: entries past it are dropped, the one crossing it cut. */
function cutDetails(details: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  let left: number = ALERT_API_LIMITS.details;
  for (const [key, value] of Object.entries(details)) {
    if (left <= key.length) break;
    kept[cut(key, left)] = cut(value, left - key.length);
    left -= key.length + Math.min(value.length, left - key.length);
  }
  return kept;
}

/** The entries that were sent (neither absent, null nor empty). */
const present = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null && v !== ''));

function refusal(error: z.ZodError): { ok: false } & AlertApiRefusal {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[issue.path.length ? String(issue.path[0]) : 'body'] ??= issue.message;
  const messages = Object.values(errors);
  return { ok: false, message: messages.length === 1 ? messages[0] : 'Request body is not processable. Please check the errors.', errors };
}
