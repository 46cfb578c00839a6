/** The shapes the admin pages read from /api (api/dashboard/routes/members.ts, credentials.ts, security.ts). */
import type { Plan } from '../../../src/domain/plans';
import type { Role } from '../../../src/domain/roles';

export type { Role };

/** A member and a pending invitation: the server's own types (src/services/workspace). */
export type { MemberJson as Member } from '../../../src/services/workspace/members';
export type { InvitationJson as Invitation } from '../../../src/services/workspace/invitations';

export interface PlanView {
  plan: Plan;
  limits: {
    users: number | null;
    sources: number | null;
    alerts_per_month: number | null;
    sms_per_user_per_month: number;
    voice_per_user_per_month: number;
    history_days: number;
    api_access: boolean;
  };
  usage: {
    users: number;
    pending_invitations: number;
    sources: number;
    alerts_this_month: number;
    alerts_limit: number | null;
    resets_at: string;
  };
}

export type AccessLevel = 'READ_ONLY' | 'READ_WRITE';

interface Holder {
  id: string;
  email: string;
}

export interface ApiToken {
  id: string;
  name: string | null;
  prefix: string;
  access: AccessLevel;
  user: Holder;
  status: 'active' | 'expired' | 'revoked';
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface NewApiToken {
  id: string;
  token: string;
  name: string | null;
  access: AccessLevel;
  expires_at: string;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  user: Holder;
  status: 'active' | 'revoked';
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface NewApiKey {
  id: string;
  key: string;
  name: string;
}

export interface TwoFactorStatus {
  enabled: boolean;
  enabled_at: string | null;
  recovery_codes_left: number;
}

export interface TwoFactorSetup {
  otpauth_uri: string;
  secret: string;
  qr_svg: string;
}
