import { Alert, Button, Code, Group, Loader, PasswordInput, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, ApiError } from '../api/client';
import { useAction, useApiQuery } from '../api/hooks';
import { withStepUp } from '../admin/factor';
import { useStepUp } from '../admin/StepUp';
import { emptySsoForm, formOf, JIT_ROLES, ssoBody, type SsoForm, type SsoSettings } from './sso-form';

const ROLE_LABELS: Record<string, string> = { MEMBER: 'Member', TEAM_MANAGER: 'Team Manager', ACCOUNT_ADMIN: 'Account Admin' };

/**
 * Single sign-on (BUSINESS): the workspace's OpenID Connect provider, the email domains whose
 * logins go to it, the role of people who sign in for the first time, and require_sso. "Test the
 * connection" reaches the IdP with the typed settings before anything is saved.
 */
export function SsoPage() {
  const settings = useApiQuery<SsoSettings>(['sso'], '/sso');
  const [form, setForm] = useState<SsoForm>(emptySsoForm);
  const stepUp = useStepUp('Changing single sign-on needs your confirmation');
  const notSetUp = settings.error instanceof ApiError && settings.error.status === 404;
  const planRefused = settings.error instanceof ApiError && settings.error.code === 'plan_limit_reached';
  useEffect(() => {
    if (settings.data) setForm(formOf(settings.data));
  }, [settings.data]);
  const test = useAction(async (body: ReturnType<typeof ssoBody>) => (await api<Record<string, unknown>>('POST', '/sso/test', body)).data);
  const save = useAction((body: ReturnType<typeof ssoBody>) => withStepUp(() => api<SsoSettings>('PUT', '/sso', body), stepUp.confirm), {
    invalidate: [['sso']],
  });
  const remove = useAction(() => withStepUp(() => api('DELETE', '/sso'), stepUp.confirm), { invalidate: [['sso']] });
  const set = <K extends keyof SsoForm>(key: K, value: SsoForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  if (settings.isPending) return <Loader />;
  if (planRefused)
    return (
      <Alert color="yellow" title="Single sign-on">
        {settings.error?.message}
      </Alert>
    );
  if (settings.error && !notSetUp) return <Alert color="red">{settings.error.message}</Alert>;
  const callback = `${window.location.origin}/auth/sso/oidc/callback`;
  return (
    <Stack maw={640}>
      <Title order={2}>Single sign-on</Title>
      <Text size="sm">
        Register Klaxon at your identity provider as an OpenID Connect web application with the redirect URI <Code>{callback}</Code>, then fill in what it gives
        you.
      </Text>
      {settings.data?.type === 'saml' && <Alert color="blue">This workspace uses SAML, set up through the API. Saving here replaces it with OIDC.</Alert>}
      <TextInput
        label="Issuer"
        placeholder="https://login.example.com"
        value={form.issuer}
        onChange={(e) => set('issuer', e.currentTarget.value)}
        error={save.fieldError('issuer')}
      />
      <TextInput label="Client ID" value={form.clientId} onChange={(e) => set('clientId', e.currentTarget.value)} error={save.fieldError('client_id')} />
      <PasswordInput
        label="Client secret"
        placeholder={settings.data?.client_secret_set ? 'stored: leave empty to keep it' : ''}
        value={form.clientSecret}
        onChange={(e) => set('clientSecret', e.currentTarget.value)}
        error={save.fieldError('client_secret')}
      />
      <TextInput
        label="Email domains"
        description="Logins with these addresses go to your identity provider; new people there become members"
        placeholder="example.com, example.org"
        value={form.domains}
        onChange={(e) => set('domains', e.currentTarget.value)}
        error={save.fieldError('domains')}
      />
      <Select
        label="Role of people who sign in for the first time"
        data={JIT_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
        value={form.defaultRole}
        onChange={(v) => v && set('defaultRole', v as SsoForm['defaultRole'])}
        allowDeselect={false}
      />
      <Switch
        label="Require single sign-on (Billing Owners may still use their password, in case the identity provider fails)"
        checked={form.requireSso}
        onChange={(e) => set('requireSso', e.currentTarget.checked)}
      />
      {test.isSuccess && <Alert color="green">The identity provider answered: {String(test.data.issuer)}</Alert>}
      {test.errorMessage && <Alert color="red">Test failed: {test.errorMessage}</Alert>}
      {save.formError && <Alert color="red">{save.formError}</Alert>}
      {save.isSuccess && <Alert color="green">Saved.</Alert>}
      <Group>
        <Button variant="default" loading={test.isPending} onClick={() => test.mutate(ssoBody(form))}>
          Test the connection
        </Button>
        <Button loading={save.isPending} onClick={() => save.mutate(ssoBody(form))}>
          Save
        </Button>
        {settings.data && (
          <Button color="red" variant="subtle" loading={remove.isPending} onClick={() => remove.mutate()}>
            Turn off single sign-on
          </Button>
        )}
      </Group>
      {stepUp.modal}
    </Stack>
  );
}
