import { startTestInfra } from './test-infra';

/** Runs once per `jest` run; the env it sets is inherited by every test worker. */
export default async function globalSetup(): Promise<void> {
  const infra = await startTestInfra();
  (globalThis as { __klaxonInfra?: typeof infra }).__klaxonInfra = infra;
  process.env.KLAXON_TEST_DATABASE_URL = infra.databaseUrl;
  // Test files clone this one (test/setup/per-file-database.ts), so nothing may stay connected to it.
  process.env.KLAXON_TEST_TEMPLATE_DATABASE_URL = infra.databaseUrl;
  process.env.KLAXON_TEST_TEMPORAL_ADDRESS = infra.temporalAddress;
  process.env.KLAXON_TEST_WORKFLOW_BUNDLE = infra.workflowBundlePath;
}
