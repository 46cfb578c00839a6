import { startTestStack, type TestStack } from './stack';
import { seedWorkspace, type SeededWorkspace } from './workspace';

export interface StackFixture {
  stack: TestStack;
  ws: SeededWorkspace;
  /** A customer API URL under the workspace: `url('/incidents')`. */
  url(path: string): string;
}

/** One test stack and one seeded workspace for a whole file, stopped after it. */
export function useStackWithWorkspace(opts: { worker?: boolean } = {}): StackFixture {
  const fixture = {
    url: (path: string) => `${fixture.stack.urls.app}/api/v1/organizations/${fixture.ws.organizationId}${path}`,
  } as StackFixture;
  beforeAll(async () => {
    fixture.stack = await startTestStack(opts);
    fixture.ws = await seedWorkspace(fixture.stack.orm);
  });
  afterAll(() => fixture.stack.stop());
  return fixture;
}
