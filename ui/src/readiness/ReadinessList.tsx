import { Anchor, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PHONE_CARDS, PhoneCardsContainer } from '../components/ResponsiveTable';
import { fixOf, formatStretch, GAP_TITLES, type ReadinessGap } from './readiness';

/** Gaps as a list: what, when, why, and a link to where it is fixed. */
export function ReadinessList({ gaps, me }: { gaps: ReadinessGap[]; me?: string }) {
  return (
    <PhoneCardsContainer minWidth={720}>
      <Table aria-label="Readiness gaps" verticalSpacing="xs" className={PHONE_CARDS}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Gap</Table.Th>
            <Table.Th>When</Table.Th>
            <Table.Th>Why</Table.Th>
            <Table.Th>Fix</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {gaps.map((g, i) => {
            const fix = fixOf(g, me);
            return (
              <Table.Tr key={`${g.kind}-${g.from}-${i}`} aria-label={g.detail}>
                <Table.Td>
                  <Text size="sm" fw={600} c={g.kind === 'rules_too_slow' ? 'orange.8' : 'red.8'}>
                    {GAP_TITLES[g.kind]}
                  </Text>
                </Table.Td>
                <Table.Td data-label="When">
                  <Text size="sm">{formatStretch(g)}</Text>
                </Table.Td>
                <Table.Td data-label="Why">
                  <Text size="sm">{g.detail}</Text>
                </Table.Td>
                <Table.Td data-label="Fix">
                  <Anchor component={Link} to={fix.to} size="sm">
                    {fix.label}
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </PhoneCardsContainer>
  );
}

/** Shown where a schedule or policy is edited: the gaps it leaves in the next 14 days, if any. */
export function ReadinessWarning({ gaps, what, me }: { gaps: ReadinessGap[] | undefined; what: string; me?: string }) {
  if (!gaps?.length) return null;
  return (
    <Stack gap={4} role="alert" aria-label="Readiness warning">
      <Text fw={600} c="orange.8">
        {what} leaves {gaps.length} gap{gaps.length === 1 ? '' : 's'} in the next 14 days: a page could reach nobody.
      </Text>
      <ReadinessList gaps={gaps} me={me} />
    </Stack>
  );
}
