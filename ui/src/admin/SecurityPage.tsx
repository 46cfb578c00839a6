import { Stack, Title } from '@mantine/core';
import { PasswordCard } from './PasswordCard';
import { SessionsCard } from './SessionsCard';
import { TwoFactorCard } from './TwoFactorCard';

/** Security of your own account: two-factor authentication, password, sessions. */
export function SecurityPage() {
  return (
    <Stack maw={960}>
      <Title order={2}>Security</Title>
      <TwoFactorCard />
      <PasswordCard />
      <SessionsCard />
    </Stack>
  );
}
