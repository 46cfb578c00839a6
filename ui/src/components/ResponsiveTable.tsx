import { Table } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import './phone-cards.css';

/** Below this width a table's rows become cards (phone-cards.css holds the same number). */
export const PHONE_QUERY = '(max-width: 575.98px)';

/** The class of a table whose rows become cards on a phone (its cells may name their column in `data-label`). */
export const PHONE_CARDS = 'klx-phone-cards';

/**
 * Holds a `PHONE_CARDS` table: on a narrow desktop it scrolls sideways in its own box (at
 * `minWidth`); on a phone it does not, as each row is a card there and nothing is clipped.
 */
export function PhoneCardsContainer({ minWidth, mt, children }: { minWidth: number; mt?: 'xs' | 'md'; children: ReactNode }) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  if (phone) return <div style={{ marginTop: mt ? `var(--mantine-spacing-${mt})` : undefined }}>{children}</div>;
  return (
    <Table.ScrollContainer minWidth={minWidth} mt={mt}>
      {children}
    </Table.ScrollContainer>
  );
}
