import type { Plan } from '../../domain/plans';

/** SCIM provisioning is a BUSINESS feature (docs/scim.md); checked when a token is made and on every SCIM request. */
export const planHasScim = (plan: Plan): boolean => plan === 'BUSINESS';

/** The one wording of the refusal, for the dashboard's 403 and SCIM's. */
export const scimPlanMessage = (plan: Plan): string => `the ${plan} plan does not include SCIM provisioning (BUSINESS does)`;
