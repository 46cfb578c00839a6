import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useAction } from '../api/hooks';
import { FormError } from '../components/PageStates';
import { CONTACTS, shownAddress, type ContactMethod } from './contact-methods';

/** An unverified phone number's code form: type the texted code back, or ask for a new one (at most once a minute). */
export function VerifyPhone({ method }: { method: ContactMethod }) {
  const [code, setCode] = useState('');
  const verify = useAction((value: string) => api<ContactMethod>('POST', `/contact-methods/${method.id}/verify`, { code: value }), { invalidate: [CONTACTS] });
  const resend = useAction(() => api<{ id: string; expires_at: string }>('POST', `/contact-methods/${method.id}/resend`), {
    onSuccess: () => {
      verify.reset();
      setCode('');
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    resend.reset();
    verify.mutate(code.trim());
  }
  const sent = resend.data?.data;
  return (
    <Stack component="form" onSubmit={submit} aria-label={`Verify ${shownAddress(method)}`} gap="xs" mt="xs">
      <Text size="sm">Type the 6-digit code we texted to this number. Until then Klaxon never pages it.</Text>
      <Group align="end" wrap="wrap" gap="xs">
        <TextInput
          label="6-digit code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={verify.fieldError('code')}
          w={160}
        />
        <Group gap="xs" wrap="wrap">
          <Button type="submit" size="sm" loading={verify.isPending}>
            Verify
          </Button>
          <Button
            variant="default"
            size="sm"
            loading={resend.isPending}
            onClick={() => {
              verify.reset();
              resend.mutate();
            }}
          >
            Send a new code
          </Button>
        </Group>
      </Group>
      <FormError message={verify.formError} />
      {/* A 429 says when to ask again ("ask again in 42 s"); the server's words are shown as they are. */}
      <FormError message={resend.errorMessage} />
      {sent && (
        <Text size="sm" c="green" role="status">
          A new code is on its way; it works until {new Date(sent.expires_at).toLocaleTimeString()}. The previous one no longer does.
        </Text>
      )}
    </Stack>
  );
}
