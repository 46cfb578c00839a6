import { Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useApiQuery } from '../api/hooks';
import { LoadError, Loading } from '../components/PageStates';
import { usageLines } from './plan';
import type { PlanView } from './types';

/** The workspace's plan and what it uses of its limits (`GET /api/plan`). */
export function PlanCard() {
  const plan = useApiQuery<PlanView>(['plan'], '/plan');
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Group gap="xs">
          <Title order={3} size="h4">
            Plan
          </Title>
          {plan.data && <Badge variant="light">{plan.data.plan}</Badge>}
        </Group>
        {plan.isPending ? (
          <Loading what="the plan" />
        ) : plan.error ? (
          <LoadError what="the plan" error={plan.error} />
        ) : (
          <Table aria-label="Plan usage" withRowBorders={false} verticalSpacing={4}>
            <Table.Tbody>
              {usageLines(plan.data).map((line) => (
                <Table.Tr key={line.label}>
                  <Table.Th w="40%">
                    <Text size="sm" fw={500}>
                      {line.label}
                    </Text>
                  </Table.Th>
                  <Table.Td>
                    <Text size="sm" c={line.full ? 'red' : undefined}>
                      {line.value}
                      {line.full ? ' — limit reached' : ''}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
