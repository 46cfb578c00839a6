/** Dashboard accounts: sign-up, email verification, login and server-side sessions (docs/architecture.md, "Workspaces, roles and credentials"). */
export { signup, type SignupInput } from './signup';
export { verifyEmail } from './verify-email';
export { login, BAD_CREDENTIALS, type LoginInput } from './login';
export {
  sessionFromCookie,
  sessionViewOf,
  createSession,
  logout,
  logoutEverywhere,
  SESSION_IDLE_MS,
  SESSION_ABSOLUTE_MS,
  type ActiveSession,
  type SessionView,
  type SignInMethodName,
} from './sessions';
export { accountMailer, type AccountMailer } from './mailer';
export { constantTimeEqual } from './secrets';
export { MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH } from './passwords';
export { changePassword } from './change-password';
export { requestPasswordReset, resetPassword } from './reset-password';
export { workspacesOf, switchWorkspace, type WorkspaceChoice } from './workspaces';
export { startTotpEnrolment, confirmTotpEnrolment, disableTotp, regenerateRecoveryCodes, twoFactorStatus, matchTotp, TOTP_ISSUER } from './totp';
export { RECOVERY_CODE_COUNT } from './recovery-codes';
export { stepUp, requireStepUp, STEP_UP_FRESH_MS, type SecondFactor, type StepUpDeps } from './step-up';
export { accountStandings, provisionMember, welcomeEmail, type AccountStanding, type Provisioned, type ProvisionInput } from './provision';
