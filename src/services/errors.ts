/** Failures a use case reports; each surface maps `kind` to its own status and envelope. */
export type DomainErrorKind = 'invalid' | 'not_found' | 'forbidden' | 'conflict' | 'unavailable';

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
