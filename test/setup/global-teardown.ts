import type { TestInfra } from './test-infra';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __klaxonInfra?: TestInfra }).__klaxonInfra?.stop();
}
