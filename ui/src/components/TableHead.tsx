import { Table, VisuallyHidden } from '@mantine/core';
import type { CSSProperties } from 'react';

/** A column heading: its text, or its text and a style (e.g. no wrapping). */
export type Column = string | { label: string; style?: CSSProperties };

/**
 * The heading row of a list table. With `actions`, a last column for the row buttons, named
 * "Actions" for screen readers and invisible on screen.
 */
export function TableHead({ columns, actions = false }: { columns: Column[]; actions?: boolean }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c) => {
          const { label, style } = typeof c === 'string' ? { label: c, style: undefined } : c;
          return (
            <Table.Th key={label} style={style}>
              {label}
            </Table.Th>
          );
        })}
        {actions && (
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        )}
      </Table.Tr>
    </Table.Thead>
  );
}
