import { z } from 'zod';
import { ROLES } from '../roles';
import { safeName } from '../names';

const trimmed = z.string().trim();

export const Username = trimmed
  .min(3, 'Username must be at least 3 characters')
  .max(64, 'Username must be at most 64 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'Username may contain only letters, digits and . _ -');
/** Every e-mail address Verity takes (sign-up, profile, invitations, reset): at most 254 characters (RFC 5321). */
export const EMAIL_MAX_LENGTH = 254;
// The length is checked before the address pattern, so a huge string is refused without being scanned.
export const Email = trimmed
  .max(EMAIL_MAX_LENGTH, `Email address must be at most ${EMAIL_MAX_LENGTH} characters`)
  .toLowerCase()
  .pipe(z.email('Invalid email address'));
/**
 * ASVS V2.1: a length floor and no composition rules. The server also refuses common and breached passwords
 * (server/modules/auth/password-policy.ts); that list stays on the server, out of the web bundle.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_RULE = `At least ${PASSWORD_MIN_LENGTH} characters, and not a common password.`;
export const Password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(256, 'Password must be at most 256 characters');

/**
 * Registration: either a new organization (organizationName) or joining one through an invitation
 * (invitationToken). Exactly one of the two is required.
 */
export const RegisterBody = z
  .object({
    username: Username,
    email: Email,
    password: Password,
    organizationName: safeName(
      trimmed.max(120, 'Organization name must be at most 120 characters'),
      'Organization name',
    ).optional(),
    invitationToken: z.string().min(10).max(200).optional(),
    firstName: trimmed.max(80).optional(),
    lastName: trimmed.max(80).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.invitationToken && !v.organizationName) {
      ctx.addIssue({ code: 'custom', path: ['organizationName'], message: 'Organization name is required' });
    }
  });
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.object({
  username: trimmed.min(1, 'Username is required').max(254),
  password: z.string().min(1, 'Password is required').max(256),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const UserView = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.enum([...ROLES, 'super_admin']),
  organizationId: z.string(),
  lastActive: z.string().nullable(),
  createdAt: z.string(),
});
export type UserView = z.infer<typeof UserView>;

export const AuthResponse = z.object({ user: UserView });
export type AuthResponse = z.infer<typeof AuthResponse>;

export const MeResponse = z.object({
  user: UserView,
  permissions: z.array(z.string()),
});
export type MeResponse = z.infer<typeof MeResponse>;

export const FirstName = trimmed.max(80, 'First name must be at most 80 characters');
export const LastName = trimmed.max(80, 'Last name must be at most 80 characters');

export const ProfileBody = z.object({
  username: Username,
  email: Email,
  firstName: FirstName.optional().nullable(),
  lastName: LastName.optional().nullable(),
});
export type ProfileBody = z.infer<typeof ProfileBody>;

/**
 * `pendingEmail`: a new address was asked for; a confirmation link went to it (when no other account holds it) and
 * the address changes when the link is opened. Null when the address stayed the same.
 */
export const ProfileResponse = z.object({ user: UserView, pendingEmail: z.string().nullable() });
export type ProfileResponse = z.infer<typeof ProfileResponse>;

export const ConfirmEmailBody = z.object({
  token: z.string().min(10, 'This confirmation link is invalid or has expired.').max(200),
});
export type ConfirmEmailBody = z.infer<typeof ConfirmEmailBody>;

/** The fields of a form that sets a new password typed twice, and its check: a mismatch shows under the second. */
const NEW_PASSWORD_TWICE = { newPassword: Password, confirmPassword: z.string().max(256) };
const newPasswordsMatch = (v: { newPassword: string; confirmPassword: string }) => v.newPassword === v.confirmPassword;
const NEW_PASSWORDS_DIFFER = { path: ['confirmPassword'], message: "New passwords don't match" };

export const ChangePasswordBody = z
  .object({ currentPassword: z.string().min(1, 'Current password is required').max(256), ...NEW_PASSWORD_TWICE })
  .refine(newPasswordsMatch, NEW_PASSWORDS_DIFFER);
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const ForgotPasswordBody = z.object({ email: Email });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

export const ResetPasswordBody = z
  .object({ token: z.string().min(10, 'Invalid or expired reset link').max(200), ...NEW_PASSWORD_TWICE })
  .refine(newPasswordsMatch, NEW_PASSWORDS_DIFFER);
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

export const MessageResponse = z.object({ message: z.string() });

/** One signed-in browser or device of the caller. Never the session id or its hash. */
export const SessionView = z.object({
  current: z.boolean(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type SessionView = z.infer<typeof SessionView>;

export const RevokeOtherSessionsResponse = z.object({
  /** How many other sessions were ended. */
  revoked: z.number().int(),
  message: z.string(),
});
export type RevokeOtherSessionsResponse = z.infer<typeof RevokeOtherSessionsResponse>;

export const DemoCredentials = z.union([
  z.object({ available: z.literal(false) }),
  z.object({ available: z.literal(true), username: z.string(), password: z.string() }),
]);
export type DemoCredentials = z.infer<typeof DemoCredentials>;

export const InvitationPreview = z.object({
  email: z.string(),
  role: z.enum(ROLES),
  organizationName: z.string(),
});
export type InvitationPreview = z.infer<typeof InvitationPreview>;
