import { randomBytes } from 'node:crypto';
import { Client as PgClient } from 'pg';

/**
 * Each test file gets its own database, cloned from the run's migrated template: stacks of
 * different files never see each other's rows (an outbox relay would otherwise deliver another
 * file's events to its own task queue or Temporal server). Everything that reads
 * KLAXON_TEST_DATABASE_URL (stacks, the CLI, direct ORM use) reads it after this hook.
 */
beforeAll(async () => {
  const template = process.env.KLAXON_TEST_TEMPLATE_DATABASE_URL;
  if (!template) return;
  const url = new URL(template);
  const name = `${url.pathname.slice(1)}_f${randomBytes(4).toString('hex')}`;
  const admin = new PgClient({ connectionString: template.replace(url.pathname, '/postgres') });
  await admin.connect();
  try {
    // A concurrent clone of the same template can find it busy for a moment: retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database "${name}" template "${url.pathname.slice(1)}"`);
        break;
      } catch (err) {
        if (attempt >= 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  process.env.KLAXON_TEST_DATABASE_URL = url.toString();
});
