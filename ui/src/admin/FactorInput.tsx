import { PasswordInput, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { FACTOR_LABELS, type FactorKind } from './factor';

const CHOICES = (Object.keys(FACTOR_LABELS) as FactorKind[]).map((value) => ({
  value,
  label: { password: 'Password', totp_code: 'App code', recovery_code: 'Recovery code' }[value],
}));

/**
 * One proof that it is you: the password, or (with two-factor on) a code from the app or a
 * recovery code. Without two-factor only the password is offered.
 */
export function FactorInput({
  twoFactor,
  kind,
  onKind,
  value,
  onValue,
  error,
}: {
  twoFactor: boolean;
  kind: FactorKind;
  onKind: (kind: FactorKind) => void;
  value: string;
  onValue: (value: string) => void;
  error?: string;
}) {
  return (
    <Stack gap="xs">
      {twoFactor && <SegmentedControl aria-label="Confirm with" data={CHOICES} value={kind} onChange={(v) => onKind(v as FactorKind)} fullWidth />}
      {kind === 'password' ? (
        <PasswordInput
          label={FACTOR_LABELS.password}
          autoComplete="current-password"
          required
          data-autofocus
          value={value}
          onChange={(e) => onValue(e.currentTarget.value)}
          error={error}
        />
      ) : (
        <TextInput
          label={FACTOR_LABELS[kind]}
          autoComplete="one-time-code"
          required
          data-autofocus
          value={value}
          onChange={(e) => onValue(e.currentTarget.value)}
          error={error}
          inputMode={kind === 'totp_code' ? 'numeric' : undefined}
        />
      )}
    </Stack>
  );
}
