import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api/client';
import { useAction } from '../api/hooks';
import { ConfirmModal } from '../components/ConfirmModal';

/** Log out everywhere: ends every session of the account, this one included. */
export function SessionsCard() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const end = useAction(() => api('POST', '/auth/logout-everywhere'), {
    onSuccess: () => {
      client.clear();
      navigate('/login');
    },
  });
  return (
    <Card withBorder>
      <Stack gap="sm" align="flex-start">
        <Title order={3} size="h4">
          Sessions
        </Title>
        <Text size="sm">Lost a phone or used a shared computer? End every session of your account, on every device.</Text>
        <Button
          variant="default"
          color="red"
          onClick={() => {
            end.reset();
            setAsking(true);
          }}
        >
          Log out everywhere
        </Button>
      </Stack>
      <ConfirmModal
        opened={asking}
        title="Log out everywhere?"
        confirmLabel="Log out of every device"
        onConfirm={() => end.mutate()}
        onCancel={() => setAsking(false)}
        loading={end.isPending}
        error={end.errorMessage}
      >
        Every session of your account ends, this one included: you will log in again here.
      </ConfirmModal>
    </Card>
  );
}
