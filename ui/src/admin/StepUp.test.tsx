import { Button } from '@mantine/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { useStepUp } from './StepUp';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Asker({ go }: { go: (url: string) => void }) {
  const stepUp = useStepUp('Changing single sign-on needs your confirmation', { go });
  return (
    <>
      <Button onClick={() => void stepUp.confirm()}>Change</Button>
      {stepUp.modal}
    </>
  );
}

const session = (plan: 'BUSINESS' | 'PRO') => ({ ...sessionAs('ACCOUNT_ADMIN'), organization: { ...sessionAs('ACCOUNT_ADMIN').organization, plan } });

describe('Confirm it is you', () => {
  it('when a BUSINESS member without a password confirms at the identity provider, then the browser goes to the IdP URL the server answered', async () => {
    const go = vi.fn<(url: string) => void>();
    const { calls } = fakeApi({
      'GET /auth/session': ok(session('BUSINESS')),
      'GET /auth/2fa': ok({ enabled: false }),
      'POST /auth/sso/step-up': ok({ redirect_url: 'https://idp.example.test/auth?max_age=0' }),
    });
    renderWithApp(<Asker go={go} />);
    fireEvent.click(screen.getByRole('button', { name: 'Change' }));
    fireEvent.click(await screen.findByRole('button', { name: /Confirm at your identity provider/ }));

    await waitFor(() => expect(go).toHaveBeenCalledWith('https://idp.example.test/auth?max_age=0'));
    expect(calls('POST /auth/sso/step-up')).toHaveLength(1);
  });

  it('when the workspace is not on BUSINESS, then only the password or code is offered', async () => {
    fakeApi({ 'GET /auth/session': ok(session('PRO')), 'GET /auth/2fa': ok({ enabled: false }) });
    renderWithApp(<Asker go={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Change' }));
    await screen.findByRole('form', { name: 'Confirm it is you' });
    await waitFor(() => expect(screen.queryByRole('button', { name: /identity provider/ })).toBeNull());
  });
});
