/** Failures a use case reports; each surface maps `kind` to its own status and envelope. */
export type DomainErrorKind = 'invalid' | 'unauthorized' | 'not_found' | 'forbidden' | 'conflict' | 'locked' | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Machine-readable code for documented conflicts (e.g. `invalid_transition`). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string, code?: string) => new DomainError('invalid', message, code);
export const notFound = (message: string) => new DomainError('not_found', message);
export const forbidden = (message: string, code?: string) => new DomainError('forbidden', message, code);
export const conflict = (message: string, code: string) => new DomainError('conflict', message, code);
/** The resource exists but takes nothing now (a paused webhook): 423. */
export const locked = (message: string, code: string) => new DomainError('locked', message, code);
/** The caller did not prove who they are (a missing or wrong signature): 401. */
export const unauthorized = (message: string, code: string) => new DomainError('unauthorized', message, code);
