import type { MikroORM } from '@mikro-orm/postgresql';
import type { Role } from '../../src/domain/roles';
import { createApiKey } from '../../src/services/workspace/api-keys';
import { addMember } from './workspace';

/** An API key for a member of the workspace: the workspace's admin's, or a new member's with `role`. */
export async function apiKeyFor(
  orm: MikroORM,
  organizationId: string,
  member: { email: string } | Role,
): Promise<{ key: string; id: string; userId?: string }> {
  const user = typeof member === 'string' ? await addMember(orm, organizationId, member) : member;
  const created = await createApiKey(orm, { organizationId, email: user.email, name: 'test key' });
  return { key: created.key, id: created.id, userId: 'id' in user ? (user as { id: string }).id : undefined };
}

/** Checks an API-key surface error body: `{success: false, error, code, timestamp}`, nothing else. */
export function expectEnvelopeError(body: unknown, code: string): void {
  expect(body).toEqual({ success: false, error: expect.any(String), code, timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
}
