import { Alert, Anchor, Button, Code, Group, Loader, PasswordInput, Radio, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api, ApiError } from '../api/client';
import { useAction, useApiQuery, useSession } from '../api/hooks';
import { withStepUp } from '../admin/factor';
import { useStepUp } from '../admin/StepUp';
import { emptySsoForm, fieldPart, formOf, JIT_ROLES, ssoBody, type SsoForm, type SsoSettings } from './sso-form';
import { ScimTokenCard } from './ScimTokenCard';
import { SsoDomains } from './SsoDomains';

const ROLE_LABELS: Record<string, string> = { MEMBER: 'Member', TEAM_MANAGER: 'Team Manager', ACCOUNT_ADMIN: 'Account Admin' };

/**
 * Single sign-on (BUSINESS): the workspace's OpenID Connect provider, the email domains whose
 * logins go to it, the role of people who sign in for the first time, and require_sso. "Test the
 * connection" reaches the IdP with the typed settings before anything is saved.
 */
export function SsoPage() {
  const settings = useApiQuery<SsoSettings>(['sso'], '/sso');
  const session = useSession();
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
  if (planRefused) return <SsoPlanExplained plan={session.data?.organization.plan} />;
  if (settings.error && !notSetUp) return <Alert color="red">{settings.error.message}</Alert>;
  const origin = window.location.origin;
  const spMetadata = `${origin}/auth/sso/saml/metadata/${session.data?.organization.id ?? '…'}`;
  return (
    <Stack maw={640}>
      <Title order={2}>Single sign-on</Title>
      <Radio.Group label="Protocol" value={form.protocol} onChange={(v) => set('protocol', v as SsoForm['protocol'])}>
        <Group mt="xs">
          <Radio value="oidc" label="OpenID Connect" />
          <Radio value="saml" label="SAML 2.0" />
        </Group>
      </Radio.Group>
      {form.protocol === 'oidc' ? (
        <>
          <Text size="sm">
            Register Klaxon at your identity provider as an OpenID Connect web application with the redirect URI{' '}
            <Code>{`${origin}/auth/sso/oidc/callback`}</Code>, then fill in what it gives you.
          </Text>
          {settings.data?.type === 'saml' && <Alert color="blue">This workspace uses SAML. Saving OpenID Connect settings replaces it.</Alert>}
          <TextInput
            label="Issuer"
            placeholder="https://login.example.com"
            value={form.issuer}
            onChange={(e) => set('issuer', e.currentTarget.value)}
            error={fieldPart(save.errorMessage, 'issuer') ?? fieldPart(test.errorMessage, 'issuer')}
          />
          <TextInput
            label="Client ID"
            value={form.clientId}
            onChange={(e) => set('clientId', e.currentTarget.value)}
            error={fieldPart(save.errorMessage, 'client_id') ?? fieldPart(test.errorMessage, 'client_id')}
          />
          <PasswordInput
            label="Client secret"
            placeholder={settings.data?.client_secret_set ? 'stored: leave empty to keep it' : ''}
            value={form.clientSecret}
            onChange={(e) => set('clientSecret', e.currentTarget.value)}
            error={fieldPart(save.errorMessage, 'client_secret') ?? fieldPart(test.errorMessage, 'client_secret')}
          />
        </>
      ) : (
        <>
          <Text size="sm">
            Add Klaxon at your identity provider as a SAML application from its metadata <Code>{spMetadata}</Code> (or with the ACS URL{' '}
            <Code>{`${origin}/auth/sso/saml/acs`}</Code> and that address as its entity id), sign the assertions, send the email as the NameID; then paste the
            identity provider&apos;s metadata here.
          </Text>
          {settings.data?.type === 'saml' && settings.data.idp_entity_id && !settings.data.idp_metadata_xml && (
            <Alert color="blue">
              This workspace&apos;s SAML provider was set by entity id, URL and certificate ({settings.data.idp_entity_id}). Pasting metadata replaces them.
            </Alert>
          )}
          {settings.data?.type === 'oidc' && <Alert color="blue">This workspace uses OpenID Connect. Saving SAML settings replaces it.</Alert>}
          <Textarea
            label="Identity provider metadata (XML)"
            rows={6}
            value={form.metadataXml}
            onChange={(e) => set('metadataXml', e.currentTarget.value)}
            error={fieldPart(save.errorMessage, 'idp_metadata_xml') ?? fieldPart(test.errorMessage, 'idp_metadata_xml')}
          />
        </>
      )}
      <TextInput
        label="Email domains"
        description="Once each is verified below, logins with these addresses go to your identity provider and new people there become members"
        placeholder="example.com, example.org"
        value={form.domains}
        onChange={(e) => set('domains', e.currentTarget.value)}
        error={fieldPart(save.errorMessage, 'domains') ?? fieldPart(test.errorMessage, 'domains')}
      />
      {settings.data && <SsoDomains domains={settings.data.domains} />}
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
      {test.isSuccess && (
        <Alert color="green">
          {form.protocol === 'saml'
            ? `The metadata reads: ${String(test.data.entity_id)}, signing in at ${String(test.data.sso_url)}`
            : `The identity provider answered: ${String(test.data.issuer)}`}
        </Alert>
      )}
      {test.formError && <Alert color="red">Test failed: {test.formError}</Alert>}
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
      <ScimTokenCard planAllows />
    </Stack>
  );
}

const planName = (plan: string | undefined) => (plan ? plan.charAt(0) + plan.slice(1).toLowerCase() : 'current');

/** On a plan without single sign-on: what it is and which plan has it, in plain words; a SCIM token left from a paid plan can still be revoked. */
function SsoPlanExplained({ plan }: { plan: string | undefined }) {
  return (
    <Stack maw={640}>
      <Title order={2}>Single sign-on</Title>
      <Alert color="blue" title="Single sign-on comes with the Business plan">
        <Stack gap="xs">
          <Text size="sm">
            This workspace is on the {planName(plan)} plan. On Business, people sign in through your company&apos;s identity provider (OpenID Connect or SAML),
            someone new there becomes a member on their first sign-in, and your identity provider can add and remove members through SCIM.
          </Text>
          <Text size="sm">
            Until then everyone signs in with their email and password.{' '}
            <Anchor component={Link} to="/members">
              See your plan and what it uses
            </Anchor>
            .
          </Text>
        </Stack>
      </Alert>
      <ScimTokenCard planAllows={false} />
    </Stack>
  );
}
