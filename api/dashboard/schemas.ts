import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../src/services/accounts';

const Password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`);
const Email = z.email('must be an email address').max(320);

export const SignupBody = z
  .object({
    email: Email,
    password: Password,
    name: z.string().trim().min(1).max(255),
    organization_name: z.string().trim().min(1).max(255),
  })
  .strict();

export const VerifyBody = z.object({ token: z.string().min(1).max(256) }).strict();

export const LoginBody = z
  .object({
    email: z.string().min(1).max(320),
    // Any length: a wrong password is the same refusal as an unknown email.
    password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
    totp_code: z.string().max(16).optional(),
    recovery_code: z.string().max(32).optional(),
  })
  .strict();

export const EmptyBody = z.object({}).strict();

export const ChangePasswordBody = z.object({ current_password: z.string().min(1).max(MAX_PASSWORD_LENGTH), new_password: Password }).strict();

export const PasswordResetRequestBody = z.object({ email: Email }).strict();

export const PasswordResetBody = z.object({ token: z.string().min(1).max(256), new_password: Password }).strict();
