import { z } from 'zod';
import { nameSchema, storableString, timestampSchema } from './common';

/**
 * Who may do what in a workspace. `owner` (exactly one, the first account or whoever it was
 * handed to) and `admin` manage providers, members, invitations and API keys; `member`
 * chats and builds agents. Chats are private to their author whatever the role.
 */
export const workspaceRoleSchema = z.enum(['owner', 'admin', 'member']);
export type WorkspaceRole = z.infer<typeof workspaceRoleSchema>;

/** Roles an invitation or a role change may grant (ownership is handed over, not granted). */
export const grantableRoleSchema = z.enum(['admin', 'member']);
export type GrantableRole = z.infer<typeof grantableRoleSchema>;

export const isAdminRole = (role: WorkspaceRole) => role === 'owner' || role === 'admin';

/** better-auth's password rules, repeated here so forms can check before sending. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const userSchema = z.object({ id: z.string(), name: z.string(), email: z.string() }).meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

export const membershipSchema = z.object({ workspaceId: z.string(), workspaceName: z.string(), role: workspaceRoleSchema }).meta({ id: 'Membership' });
export type Membership = z.infer<typeof membershipSchema>;

/** `GET /api/me`: the signed-in person and the workspaces they belong to. */
export const meSchema = z
  .object({
    user: userSchema,
    memberships: z.array(membershipSchema),
    /** Set when the request was made with an API key: the one workspace it reaches. */
    apiKeyWorkspaceId: z.string().nullable(),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof meSchema>;

/** `GET /api/auth-status` (public): what a signed-out visitor can do on this instance. */
export const authStatusSchema = z
  .object({
    /** No account exists yet: the next sign-up creates the owner. */
    needsOwner: z.boolean(),
    /** Anyone may sign up (`BATON_OPEN_SIGNUP=true`); otherwise only with an invitation. */
    openSignup: z.boolean(),
    /** The server can send mail (`BATON_SMTP_URL`): "Forgot password?" mails a reset link, invitations can be mailed. */
    mail: z.boolean(),
    /** Single sign-on (`BATON_OIDC_*`): the sign-in page offers "Sign in with <label>". */
    sso: z.object({ providerId: z.string(), label: z.string() }).nullable(),
  })
  .meta({ id: 'AuthStatus' });
export type AuthStatus = z.infer<typeof authStatusSchema>;

export const memberSchema = z
  .object({
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    role: workspaceRoleSchema,
    joinedAt: timestampSchema,
  })
  .meta({ id: 'Member' });
export type Member = z.infer<typeof memberSchema>;

export const memberListSchema = z.object({ data: z.array(memberSchema) }).meta({ id: 'MemberList' });

/** `owner` hands the workspace over (only the owner may; they become an admin). */
export const memberUpdateSchema = z.strictObject({ role: workspaceRoleSchema }).meta({ id: 'MemberUpdate' });
export type MemberUpdate = z.infer<typeof memberUpdateSchema>;

export const INVITATION_TTL_DAYS = 7;

export const invitationSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    role: grantableRoleSchema,
    createdBy: z.string().nullable(),
    expiresAt: timestampSchema,
    createdAt: timestampSchema,
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof invitationSchema>;

export const invitationCreateSchema = z
  .strictObject({
    role: grantableRoleSchema.default('member'),
    /** Also mail the link to this address (needs `BATON_SMTP_URL`; else `400 mail_not_configured`). */
    email: z.email('must be an email address').max(320).optional(),
  })
  .meta({ id: 'InvitationCreate' });
export type InvitationCreate = z.input<typeof invitationCreateSchema>;

/** The only time an invitation's token is shown: the link is `/invite/<token>`. */
export const invitationCreatedSchema = invitationSchema
  .extend({
    token: z.string(),
    /** Where the link was mailed, when `email` was given. */
    emailedTo: z.string().optional(),
  })
  .meta({ id: 'InvitationCreated' });
export type InvitationCreated = z.infer<typeof invitationCreatedSchema>;

export const invitationListSchema = z.object({ data: z.array(invitationSchema) }).meta({ id: 'InvitationList' });

/** `GET /api/invitations/:token` (public): what the link offers, before signing up or in. */
export const invitationPreviewSchema = z
  .object({ workspaceId: z.string(), workspaceName: z.string(), role: grantableRoleSchema, expiresAt: timestampSchema })
  .meta({ id: 'InvitationPreview' });
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The key's first characters, to tell keys apart; the key itself is never shown again. */
    prefix: z.string(),
    userId: z.string(),
    createdAt: timestampSchema,
    lastUsedAt: timestampSchema.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyCreateSchema = z.strictObject({ name: nameSchema }).meta({ id: 'ApiKeyCreate' });
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

/** `POST …/api-keys` answers `{ id, name, key, createdAt }`: the only time `key` is shown. */
export const apiKeyCreatedSchema = z
  .object({ id: z.string(), name: z.string(), key: z.string(), prefix: z.string(), createdAt: timestampSchema })
  .meta({ id: 'ApiKeyCreated' });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

export const apiKeyListSchema = z.object({ data: z.array(apiKeySchema) }).meta({ id: 'ApiKeyList' });

/** API keys start with this, so secret scanners and people recognise them. */
export const API_KEY_PREFIX = 'baton_';

/** Sign-up as sent to `POST /api/auth/sign-up/email`; `inviteToken` joins the invitation's workspace. */
export const signUpSchema = z.object({
  name: nameSchema,
  email: z.email('must be an email address').max(320),
  password: storableString.min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`).max(PASSWORD_MAX_LENGTH),
  inviteToken: storableString.max(200).optional(),
});
export type SignUp = z.infer<typeof signUpSchema>;

/**
 * `POST /api/auth/update-user` (better-auth's, passed through): the name only, under the
 * rules of sign-up. better-auth would also take any string as `image`; Baton shows no
 * pictures and its pages never set one, so it is refused with every other field.
 */
export const updateUserSchema = z.strictObject({ name: nameSchema }).meta({ id: 'UpdateUser' });
export type UpdateUser = z.infer<typeof updateUserSchema>;

/** A new password, under the rules of sign-up. */
export const newPasswordSchema = storableString
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

/**
 * `POST /api/auth/change-password` (signed in): the current password proves it is the person,
 * not someone at their unlocked screen. Every other session of theirs is signed out.
 */
export const changePasswordSchema = z
  .strictObject({
    currentPassword: storableString.min(1, 'must not be empty').max(PASSWORD_MAX_LENGTH),
    newPassword: newPasswordSchema,
  })
  .meta({ id: 'ChangePassword' });
export type ChangePassword = z.infer<typeof changePasswordSchema>;

/** How long a password reset link (an admin's or a mailed one) works: once, within this. */
export const PASSWORD_RESET_TTL_MINUTES = 60;

/** `POST …/members/:userId/password-reset` (admins): the only time the link's token is shown. */
export const passwordResetLinkSchema = z
  .object({
    token: z.string(),
    /** `<BATON_PUBLIC_URL>/reset-password/<token>`: the page where the member sets a new password. */
    url: z.string(),
    expiresAt: timestampSchema,
  })
  .meta({ id: 'PasswordResetLink' });
export type PasswordResetLink = z.infer<typeof passwordResetLinkSchema>;

/** `POST /api/auth/reset-password` (public): a reset link's token and the new password; signs out every session of the account. */
export const resetPasswordSchema = z
  .strictObject({ token: storableString.trim().min(1, 'must not be empty').max(200), newPassword: newPasswordSchema })
  .meta({ id: 'ResetPassword' });
export type ResetPassword = z.infer<typeof resetPasswordSchema>;

/** `POST /api/auth/request-password-reset` (public, only with mail): mails a reset link if the address has an account. */
export const forgotPasswordSchema = z.strictObject({ email: z.email('must be an email address').max(320) }).meta({ id: 'ForgotPassword' });
export type ForgotPassword = z.infer<typeof forgotPasswordSchema>;

/** A path of the web app: not `//host` or `/\host` (another site), no control character (a URL parser drops them, reading another host). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const APP_PATH = /^\/(?![/\\])[^\u0000-\u001f\u007f]*$/;

/** `POST /api/auth/sign-in/sso` (public): starts single sign-on; `inviteToken` lets a new account join that invitation's workspace. */
export const ssoSignInSchema = z
  .strictObject({
    /** Where to land afterwards: a path of the web app (`/w/default`), never another site. */
    next: storableString.max(2000).regex(APP_PATH, 'must be a path of this site starting with /').optional(),
    inviteToken: storableString.max(200).optional(),
  })
  .meta({ id: 'SsoSignIn' });
export type SsoSignIn = z.infer<typeof ssoSignInSchema>;

export const signInSchema = z.object({
  email: z.email('must be an email address').max(320),
  password: storableString.min(1, 'must not be empty').max(PASSWORD_MAX_LENGTH),
  /** false: the session ends with the browser session. */
  rememberMe: z.boolean().optional(),
});
export type SignIn = z.infer<typeof signInSchema>;
