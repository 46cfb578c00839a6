import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { factorBody, StepUpCancelled, withStepUp } from './factor';

describe('factorBody', () => {
  it('when a code is pasted with spaces, then they are dropped; a password is sent exactly as typed', () => {
    expect(factorBody('totp_code', ' 492 039 ')).toEqual({ totp_code: '492039' });
    expect(factorBody('recovery_code', 'k3mq-7zpa x2vd')).toEqual({ recovery_code: 'k3mq-7zpax2vd' });
    expect(factorBody('password', ' correct horse ')).toEqual({ password: ' correct horse ' });
  });
});

describe('withStepUp', () => {
  const stepUpRequired = new ApiError(403, 'step_up_required', 'confirm it is you first');

  it('when the server asks for a step-up and the person confirms, then the request is sent again and its answer returned', async () => {
    const run = vi.fn().mockRejectedValueOnce(stepUpRequired).mockResolvedValueOnce('created');
    const confirm = vi.fn().mockResolvedValue(true);
    await expect(withStepUp(run, confirm)).resolves.toBe('created');
    expect(run).toHaveBeenCalledTimes(2);
    expect(confirm).toHaveBeenCalledTimes(1);
  });

  it('when the person cancels, then the request is not sent again', async () => {
    const run = vi.fn().mockRejectedValue(stepUpRequired);
    await expect(withStepUp(run, async () => false)).rejects.toBeInstanceOf(StepUpCancelled);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('when the server refuses for another reason, then nobody is asked to confirm and the error stands', async () => {
    const confirm = vi.fn();
    const unverified = new ApiError(403, 'email_unverified', 'verify your email address first');
    await expect(withStepUp(() => Promise.reject(unverified), confirm)).rejects.toBe(unverified);
    expect(confirm).not.toHaveBeenCalled();
  });
});
