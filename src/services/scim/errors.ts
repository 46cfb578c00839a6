/** A SCIM protocol error (RFC 7644 §3.12): the status and `scimType` the SCIM surface answers with. */
export type ScimType = 'invalidFilter' | 'invalidValue' | 'invalidPath' | 'invalidSyntax' | 'noTarget' | 'mutability' | 'uniqueness' | 'tooMany';

export class ScimError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 501,
    message: string,
    readonly scimType?: ScimType,
  ) {
    super(message);
    this.name = 'ScimError';
  }
}

export const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');
export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidPath = (detail: string) => new ScimError(400, detail, 'invalidPath');
