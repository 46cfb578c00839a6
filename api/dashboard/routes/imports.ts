import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { IMPORT_KINDS, type ImportSystem } from '../../../src/domain/importers/plan';
import { importFrom } from '../../../src/integrations/import-sources';
import { importers } from '../../../src/integrations/wiring';
import type { Importer } from '../../../src/integrations/types';
import { ImportSourceError } from '../../../src/services/importers';
import { HttpError } from '../../http/customer-errors';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, auditActorOf, authorizedActor, requireVerified, type AdminDeps } from '../admin-kit';

extendZodWithOpenApi(z);

/** Settings → Import: bring an account of another tool in (one route per importer in the registry), or preview it (docs/importers.md). */

// A credential is one line of printable characters; its value is never echoed in an error.
const credential = z
  .string({ error: 'is required' })
  .min(1, 'is required')
  .max(512, 'must be at most 512 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be one line of printable characters');
const apiUrl = z.string().max(2048, 'must be at most 2048 characters').url('must be a URL').optional();
const dryRun = z.boolean({ error: 'must be true (preview) or false (import)' });

/** An import's body: the importer's credential field (`api_token`, `api_key`), the API URL and whether it is a preview. */
const bodyOf = (importer: Importer) => z.object({ [importer.credential.field]: credential, api_url: apiUrl, dry_run: dryRun }).strict();

const counts = z.object(Object.fromEntries(IMPORT_KINDS.map((k) => [k, z.number().int()])) as Record<(typeof IMPORT_KINDS)[number], z.ZodNumber>);
const kind = z.enum(IMPORT_KINDS);
const ReportSchema = z
  .object({
    created: counts.describe('objects created (in a dry run: that would be); users: people made members (those invited instead are in skipped)'),
    updated: counts.describe('objects an earlier import made, changed to match the source'),
    skipped: z
      .array(z.object({ kind, external_id: z.string(), name: z.string(), why: z.string() }))
      .describe('everything not (or not wholly) brought in, with why'),
    mapping: z
      .array(z.object({ kind, external_id: z.string(), id: z.uuid().nullable(), name: z.string() }))
      .describe('each object of the source and what it is in Klaxon (id null: invited, or to be created in a dry run)'),
  })
  .openapi('ImportReport');

const SOURCE_ERRORS = {
  400: 'invalid input; source_token_refused: the source refused the token or key (it is never echoed); source_url_refused: the API URL is not allowed (SSRF guard)',
  409: 'import_running: an import into this workspace is running',
  502: 'source_unavailable, source_rate_limited, source_bad_answer: the source could not be read (after retries); nothing was written',
} as const;

const STATUS: Record<ImportSourceError['code'], number> = {
  source_token_refused: 400,
  source_url_refused: 400,
  source_unavailable: 502,
  source_rate_limited: 502,
  source_bad_answer: 502,
};

export function importRoutes(deps: AdminDeps): RouteSpec[] {
  const run = async (ctx: Parameters<RouteSpec['handler']>[0], system: ImportSystem, body: { api_url?: string; dry_run: boolean }, secret: string) => {
    const actor = await authorizedActor(deps.orm, ctx, 'import.run');
    // A real import invites people, which unverified accounts may not.
    if (!body.dry_run) requireVerified(actor, 'import (it invites people)');
    try {
      const report = await importFrom(
        { orm: deps.orm, mailer: deps.mailer, appUrl: deps.appUrl, ingestBaseUrl: deps.webhooks.urls.ingest, seal: (s) => deps.webhooks.sealer.seal(s) },
        { organizationId: actor.organizationId, system, dryRun: body.dry_run, actor: { audit: auditActorOf(actor), userId: actor.userId, role: actor.role } },
        { credential: secret, apiUrl: body.api_url, allowPrivate: deps.targets?.allowPrivate ?? false },
      );
      const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
      const message = body.dry_run
        ? `plan: ${total(report.created)} to create, ${total(report.updated)} to update, ${report.skipped.length} skipped`
        : `imported: ${total(report.created)} created, ${total(report.updated)} updated, ${report.skipped.length} skipped`;
      return { data: report, message };
    } catch (err) {
      if (err instanceof ImportSourceError) throw new HttpError(STATUS[err.code], err.message, err.code);
      throw err;
    }
  };
  return importers().map((importer) =>
    defineRoute({
      method: 'post',
      access: 'write',
      path: `/import/${importer.system}`,
      operationId: importer.operationId,
      summary: `Import ${importer.brings} from ${importer.label}, or preview it with dry_run (Billing Owner, Account Admin)`,
      body: bodyOf(importer),
      success: {
        status: 200,
        description: 'the report: what was (or would be) created and updated, what was skipped and why, and the mapping',
        schema: ReportSchema,
      },
      errors: { ...ADMIN_ERRORS, ...SOURCE_ERRORS },
      handler: (ctx, { body }) => {
        // The schema made the credential field a string (bodyOf); its key is the importer's.
        const given = body as { api_url?: string; dry_run: boolean } & Record<string, unknown>;
        return run(ctx, importer.system, given, given[importer.credential.field] as string);
      },
    }),
  );
}
