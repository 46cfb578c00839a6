import { Stack, Text, Title } from '@mantine/core';
import { useApiQuery, useSession } from '../api/hooks';
import { Loading, LoadError } from '../components/PageStates';
import { CONTACTS, RULES, type ContactMethod, type NotificationRule } from './contact-methods';
import { ContactMethods } from './ContactMethods';
import { NotificationRules } from './NotificationRules';
import { PushOnThisDevice } from './PushOnThisDevice';
import { SlackDirectMessages } from './SlackDirectMessages';
import { TimeZoneCard } from './TimeZoneCard';

/** My profile: the time zone times are shown in; how Klaxon reaches me when I am paged (contact methods, pushes to this browser) and when (notification rules). */
export function ProfilePage() {
  const session = useSession();
  const methods = useApiQuery<ContactMethod[]>(CONTACTS, '/contact-methods');
  const rules = useApiQuery<NotificationRule[]>(RULES, '/notification-rules');
  const user = session.data?.user;
  return (
    <Stack maw={820}>
      <Title order={2}>My profile</Title>
      {user && (
        <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {user.name ? `${user.name} · ` : ''}
          {user.email}
        </Text>
      )}
      <TimeZoneCard />
      {(methods.isPending || rules.isPending) && <Loading what="your contact methods and rules" />}
      <LoadError what="your contact methods" error={methods.error} />
      <LoadError what="your notification rules" error={rules.error} />
      {methods.data && rules.data && (
        <>
          <ContactMethods methods={methods.data} rules={rules.data} />
          <PushOnThisDevice methods={methods.data} rules={rules.data} />
          <SlackDirectMessages methods={methods.data} />
          <NotificationRules methods={methods.data} rules={rules.data} />
        </>
      )}
    </Stack>
  );
}
