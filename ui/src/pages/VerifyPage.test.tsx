import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { VerifyPage } from './TokenPages';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('VerifyPage', () => {
  it('when the emailed link is opened, then the token is sent once (it works once) and the page says the address is verified', async () => {
    const { calls } = fakeApi({ 'POST /auth/verify': ok({ verified: true }) });
    const { rerender } = renderWithApp(<VerifyPage />, { path: '/verify?token=abc123' });
    expect(await screen.findByText('Email verified')).toBeTruthy();
    rerender(<VerifyPage />);
    expect(calls('POST /auth/verify')).toEqual([{ token: 'abc123' }]);
  });
});
