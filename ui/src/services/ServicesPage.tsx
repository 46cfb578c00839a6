import { Stack, Title } from '@mantine/core';
import { ServicesCard } from '../setup/ServicesCard';

/** Every service, each linked to its own page; created and given a policy here as on Set up. */
export function ServicesPage() {
  return (
    <Stack maw={1000}>
      <Title order={2}>Services</Title>
      <ServicesCard />
    </Stack>
  );
}
