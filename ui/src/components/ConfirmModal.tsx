import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormError } from './PageStates';

/**
 * A destructive action's second step: what will happen, and the red button that does it. The
 * server's refusal (a 409 such as `policy_in_use` or `last_billing_owner`) is shown inside, where
 * the person is looking, and the dialog stays open so they can read it.
 */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  onCancel,
  loading,
  error,
}: {
  opened: boolean;
  /** The dialog's accessible name: say what goes ("Delete monitor Klaxon itself?"). */
  title: string;
  /** What follows from it: what goes with it, what stays. */
  children: ReactNode;
  /** The confirm button's name ("Delete", "Revoke", "Delete policy"). */
  confirmLabel: string;
  /** The way out ("Keep it" where "Cancel" would read as cancelling the thing itself). */
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  loading?: boolean;
  /** The server's refusal, if it refused. */
  error?: string;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Stack>
        <Text size="sm">{children}</Text>
        <FormError message={error} />
        <Group justify="flex-end" wrap="wrap">
          <Button variant="default" onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button color="red" loading={loading} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
