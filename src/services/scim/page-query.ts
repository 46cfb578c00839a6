import type { Knex } from '@mikro-orm/postgresql';
import type { Page } from './actor';
import { compileFilter, type FilterAttribute } from './filter';

/**
 * One SCIM list page (RFC 7644 §3.4.2.4) of `rows()` narrowed by the page's filter: how many match
 * in all, and the rows from `startIndex` (1-based), `count` of them, in `order`.
 */
export async function scimPageOf<Row>(
  rows: () => Knex.QueryBuilder,
  page: Page,
  shape: { filter: Record<string, FilterAttribute>; columns: string[]; order: Array<{ column: string }> },
): Promise<{ rows: Row[]; total: number }> {
  const condition = page.filter === undefined ? undefined : compileFilter(page.filter, shape.filter);
  const narrowed = () => (condition ? rows().andWhereRaw(`(${condition.sql})`, condition.bindings) : rows());
  const [{ n }] = await narrowed().count({ n: '*' });
  const found: Row[] =
    page.count === 0
      ? []
      : await narrowed()
          .select(shape.columns)
          .orderBy(shape.order)
          .limit(page.count)
          .offset(page.startIndex - 1);
  return { rows: found, total: Number(n) };
}
