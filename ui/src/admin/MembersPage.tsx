import { Stack, Title } from '@mantine/core';
import { useSession } from '../api/hooks';
import { LoadError, Loading } from '../components/PageStates';
import { InvitationsCard } from './InvitationsCard';
import { MembersCard } from './MembersCard';
import { PlanCard } from './PlanCard';

/** Members: who is in the workspace with which role, pending invitations, and the plan's usage. */
export function MembersPage() {
  const session = useSession();
  return (
    <Stack maw={960}>
      <Title order={2}>Members</Title>
      {session.isPending ? (
        <Loading what="your session" />
      ) : session.error ? (
        <LoadError what="your session" error={session.error} />
      ) : (
        <>
          <MembersCard session={session.data} />
          <InvitationsCard session={session.data} />
          <PlanCard />
        </>
      )}
    </Stack>
  );
}
