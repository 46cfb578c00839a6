import { z } from 'zod';
import { ACCESS_LEVELS } from '../domain/api-token';
import { formatPath } from '../domain/issue-path';
import { PLANS } from '../domain/plans';
import { ROLES } from '../domain/roles';
import type { Config } from '../config';
import { migrate, openOrm, type MikroORM } from '../db/orm';
import { resolveDatabase } from '../stack/database';
import {
  addUser,
  adoptFirstMember,
  changePlan,
  createApiToken,
  createOrganization,
  createReadyWorkspace,
  listApiTokens,
  prepareWorkspace,
  revokeApiToken,
} from '../services/workspace';
import { knexOf } from '../db/knex';
import { SYSTEM_CLI } from '../services/audit';
import { createSource, createSourceForService, rotateSource } from '../services/ingest';
import { invalid } from '../services/errors';
import { createSealer, newSigningSecret } from '../services/inbound-webhooks';
import { resolveSecret } from '../stack/secret';

/** Messages for people go to stderr so `--json` output on stdout stays one clean object. */
const note = (line: string) => process.stderr.write(`[klaxon] ${line}\n`);

/** Opens the stack's database (a running stack's embedded Postgres, or DATABASE_URL), migrated. */
export async function withDatabase<T>(config: Config, fn: (orm: MikroORM) => Promise<T>): Promise<T> {
  const db = await resolveDatabase(config, note);
  const orm = await openOrm(db.url, 4);
  try {
    await migrate(orm);
    return await fn(orm);
  } finally {
    await orm.close();
    await db.stop?.();
  }
}

/** Prints a result: one JSON object with --json, else indented JSON. */
export function output(result: unknown, json: boolean | undefined) {
  process.stdout.write((json ? JSON.stringify(result) : JSON.stringify(result, null, 2)) + '\n');
}

/**
 * Parses CLI options with zod; a bad value is a DomainError the CLI prints plainly, naming the
 * option and, inside a JSON option, the place: `--steps[0].targets[1].id: must be an id (UUID)`.
 */
export function parseOptions<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const flag = (key: PropertyKey) => `--${String(key).replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`;
  const where = ([head, ...rest]: readonly PropertyKey[]) => flag(head ?? '') + (rest.length && typeof rest[0] !== 'number' ? '.' : '') + formatPath(rest);
  throw invalid(parsed.error.issues.map((i) => `${where(i.path)}: ${i.message}`).join('; '));
}

const upper = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(values, { message: `must be one of ${values.join(', ')}` }));

export const schemas = {
  orgCreate: z.object({ name: z.string().trim().min(1, 'is required').max(255), plan: upper(PLANS) }),
  orgPlan: z.object({ org: z.string().uuid('must be a workspace id (UUID)'), plan: upper(PLANS) }),
  userAdd: z.object({
    org: z.string().uuid('must be a workspace id (UUID)'),
    email: z.string().email('must be an email address'),
    password: z.string().min(8, 'must be at least 8 characters'),
    role: upper(ROLES),
    unverified: z.boolean().optional(),
  }),
  bootstrap: z.object({
    org: z.string().trim().min(1, 'is required').max(255),
    email: z.string().email('must be an email address'),
    password: z.string().min(8, 'must be at least 8 characters'),
    plan: upper(PLANS).default('PRO'),
  }),
  tokenCreate: z.object({
    org: z.string().uuid('must be a workspace id (UUID)'),
    user: z.string().email('must be an email address'),
    access: upper(ACCESS_LEVELS),
    days: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(30, 'must be at most 30 (tokens live 30 days at most)'),
  }),
  tokenList: z.object({ org: z.string().uuid('must be a workspace id (UUID)') }),
  heartbeatCreate: z.object({
    service: z.string().uuid('must be a service id (UUID)'),
    name: z.string().trim().min(1, 'is required').max(255).default('heartbeat'),
    periodSeconds: z.coerce
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(31 * 86_400, 'must be at most 31 days'),
    graceSeconds: z.coerce.number().int('must be a whole number').min(0, 'must not be negative').max(86_400, 'must be at most a day').default(60),
  }),
  sourceCreate: z.object({
    service: z.string().uuid('must be a service id (UUID)'),
    name: z.string().trim().min(1, 'is required').max(255),
    channels: z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean),
      )
      .optional(),
  }),
};

/** `klaxon bootstrap`: a workspace ready to use, in one command. */
export async function bootstrap(orm: MikroORM, config: Config, opts: z.infer<typeof schemas.bootstrap>) {
  if (opts.plan !== 'PRO' && opts.plan !== 'BUSINESS') {
    throw invalid(`--plan: bootstrap creates an API token, which needs a plan with API access (PRO or BUSINESS), not ${opts.plan}`);
  }
  const org = await createOrganization(orm, { name: opts.org, plan: opts.plan });
  const user = await addUser(orm, { organizationId: org.id, email: opts.email, password: opts.password, role: 'ACCOUNT_ADMIN', verified: true });
  // Ready as a sign-up is (a team with the admin in it, the default service and policy, the
  // admin's email paged at once): the first alert of a fresh install pages someone (the dev inbox
  // shows it) instead of opening a silent incident.
  const ready = await knexOf(orm).transaction((trx) => prepareWorkspace(trx, { organizationId: org.id, name: org.name, actor: SYSTEM_CLI, owner: user }));
  const source = await createSource(orm, { organizationId: org.id, serviceId: ready.service_id, name: 'Default source', ingestBaseUrl: config.urls.ingest });
  const token = await createApiToken(orm, { organizationId: org.id, email: user.email, access: 'READ_WRITE', days: 30 });
  return {
    organization_id: org.id,
    user: { id: user.id, email: user.email },
    team_id: ready.team_id,
    service_id: ready.service_id,
    escalation_policy_id: ready.escalation_policy_id,
    source: { id: source.id, ingest_url: source.ingest_url, routing_key: source.routing_key },
    token: { id: token.id, token: token.token, access: token.access, expires_at: token.expires_at },
    paging: ready.owner,
  };
}

/**
 * `klaxon source create`: a plain source, or with `--channels` a Form B webhook, which gets a
 * signing secret (printed this once) so its receiver does not take unsigned posts. Both URL
 * secrets are sealed as the dashboard's are, so the dashboard can show the URL later.
 */
export async function createCliSource(orm: MikroORM, config: Config, o: z.infer<typeof schemas.sourceCreate>) {
  const sealer = createSealer(resolveSecret(config));
  const signingSecret = o.channels ? newSigningSecret() : null;
  const created = await createSourceForService(orm, {
    serviceId: o.service,
    name: o.name,
    ingestBaseUrl: config.urls.ingest,
    channels: o.channels,
    seal: (s) => sealer.seal(s),
    webhook: signingSecret ? { signingSecretSealed: sealer.seal(signingSecret) } : undefined,
  });
  return signingSecret ? { ...created, signing_secret: signingSecret } : created;
}

/**
 * `klaxon source rotate`: a new URL secret and routing key, the old ones dead at once; the new
 * URL is sealed as the dashboard's are, so the dashboard still shows it.
 */
export async function rotateCliSource(orm: MikroORM, config: Config, sourceId: string) {
  const sealer = createSealer(resolveSecret(config));
  return rotateSource(orm, { sourceId, ingestBaseUrl: config.urls.ingest, seal: (s) => sealer.seal(s) });
}

export const admin = {
  createOrganization,
  createReadyWorkspace,
  changePlan,
  adoptFirstMember,
  addUser,
  createApiToken,
  listApiTokens,
  revokeApiToken,
  createSourceForService,
  rotateSource,
};
