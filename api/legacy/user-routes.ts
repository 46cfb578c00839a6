import type { MikroORM } from '@mikro-orm/postgresql';
import type { RouteSpec } from '../http/route-spec';

/** /v1/users (spec surface c): the key's own user, and the workspace's members. */
export function userRoutes(_deps: { orm: MikroORM }): RouteSpec[] {
  return [];
}
