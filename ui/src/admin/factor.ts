import { ApiError } from '../api/client';

/** The proofs a sensitive request accepts (api/dashboard/routes/security.ts `FactorFields`). */
export type FactorKind = 'password' | 'totp_code' | 'recovery_code';

export const FACTOR_LABELS: Record<FactorKind, string> = {
  password: 'Password',
  totp_code: 'Code from your authenticator app',
  recovery_code: 'Recovery code',
};

export type FactorBody = Partial<Record<FactorKind, string>>;

/** The body field for one factor. Codes are often pasted with spaces; the password is sent as typed. */
export function factorBody(kind: FactorKind, value: string): FactorBody {
  return { [kind]: kind === 'password' ? value : value.replace(/\s+/g, '') };
}

/** The person closed the "confirm it is you" dialog: nothing was sent again. */
export class StepUpCancelled extends Error {
  constructor() {
    super('not confirmed: nothing was changed');
  }
}

const needsStepUp = (err: unknown) => err instanceof ApiError && err.status === 403 && err.code === 'step_up_required';

/**
 * Runs a sensitive request; when the server wants a fresh step-up (403 step_up_required), asks
 * `confirm` (which steps the session up and resolves true, or false when cancelled) and retries
 * once. The step-up lasts 5 minutes, so further requests go through without asking again.
 */
export async function withStepUp<T>(run: () => Promise<T>, confirm: () => Promise<boolean>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!needsStepUp(err)) throw err;
    if (!(await confirm())) throw new StepUpCancelled();
    return run();
  }
}
