/** SAML 2.0 service provider for workspace single sign-on (docs/sso-saml.md). */
export { SamlRejected, type SamlRejectionCode } from './errors';
export {
  parseIdpMetadata,
  normalizeCertificate,
  samlIdpConfigSchema,
  samlIdpFormShape,
  samlIdpSettingsSchema,
  withSamlIdpConfig,
  SAML_IDP_LIMITS,
  type SamlIdpConfig,
  type SamlIdpForm,
} from './idp-config';
export {
  samlAcsUrlOf,
  samlEntityIdOf,
  samlServiceProviderMetadata,
  SAML_ACS_PATH,
  SAML_METADATA_PATH,
  SAML_CLOCK_SKEW_MS,
  SAML_REQUEST_TTL_MS,
  type SamlServiceProvider,
} from './service-provider';
export { startSamlSignIn, completeSamlSignIn, SAML_POST_LIMITS, type SamlSignInStart, type SamlIdentity, type SamlAcsInput } from './sign-in';
