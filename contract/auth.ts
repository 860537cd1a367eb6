import * as v from 'valibot';
import { text } from './text.js';
import { apiMessages, genericValidationMessages, validationMessages as m } from './messages.js';

// Section 5 of the spec: the same rules for the PWA forms and the API.

export const EmailSchema = v.pipe(text(m.emailRequired), v.trim(), v.nonEmpty(m.emailRequired), v.email(m.emailInvalid), v.maxLength(254, m.emailInvalid));

export const NewPasswordSchema = v.pipe(
  text(m.passwordMin),
  v.minLength(8, m.passwordMin),
  v.maxLength(128, 'Пароль не длиннее 128 символов'),
  v.regex(/[a-z]/, m.passwordLowercase),
  v.regex(/[A-Z]/, m.passwordUppercase),
  v.regex(/[0-9]/, m.passwordDigit),
);

const firstName = v.pipe(text(m.firstNameRequired), v.trim(), v.minLength(1, m.firstNameRequired), v.minLength(2, m.firstNameMin), v.maxLength(100));
const lastName = v.pipe(text(m.lastNameRequired), v.trim(), v.minLength(1, m.lastNameRequired), v.minLength(2, m.lastNameMin), v.maxLength(100));

/**
 * A field the client left out of an API request is checked as an empty one, so the answer carries the
 * form's message ('Введите email') rather than valibot's generic missing-key text.
 */
const required = <S extends v.GenericSchema<string, unknown>>(schema: S) => v.optional(schema, '');

export const LoginSchema = v.object({
  email: required(EmailSchema),
  password: required(v.pipe(text(m.passwordRequired), v.nonEmpty(m.passwordRequired))),
});
export type LoginPayload = v.InferOutput<typeof LoginSchema>;

export const OrganizationNameSchema = v.pipe(text(m.organizationNameMin), v.trim(), v.minLength(2, m.organizationNameMin), v.maxLength(200));
export const InvitationCodeSchema = v.pipe(text(m.invitationCodeMin), v.trim(), v.minLength(5, m.invitationCodeMin), v.maxLength(20, m.invitationCodeMax));

/** The register form: what the user fills in, including the fields that are never sent. */
export const RegisterFormSchema = v.pipe(
  v.object({
    first_name: firstName,
    last_name: lastName,
    email: EmailSchema,
    password: NewPasswordSchema,
    organization_type: v.picklist(['create', 'join'], m.organizationType),
    organization_name: v.optional(text()),
    invitation_code: v.optional(text()),
    terms_accepted: v.literal(true, m.termsRequired),
  }),
  v.forward(
    v.check(
      (form) =>
        form.organization_type === 'create'
          ? (form.organization_name ?? '').trim().length >= 2
          : (form.invitation_code ?? '').trim().length >= 5,
      m.organizationFields,
    ),
    ['organization_type'],
  ),
);
export type RegisterForm = v.InferInput<typeof RegisterFormSchema>;

/** What the API receives: organization_name when creating, invitation_code when joining. */
export const RegisterRequestSchema = v.pipe(
  v.object({
    first_name: required(firstName),
    last_name: required(lastName),
    email: required(EmailSchema),
    password: required(NewPasswordSchema),
    organization_name: v.optional(OrganizationNameSchema),
    invitation_code: v.optional(InvitationCodeSchema),
  }),
  v.check((body) => Boolean(body.organization_name) !== Boolean(body.invitation_code), m.organizationFields),
);
export type RegisterPayload = v.InferOutput<typeof RegisterRequestSchema>;

export const UserSchema = v.object({
  id: v.string(),
  email: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  full_name: v.string(),
  role: v.picklist(['user', 'admin']),
  is_verified: v.boolean(),
});
export type User = v.InferOutput<typeof UserSchema>;

export const OrganizationSchema = v.object({
  id: v.string(),
  name: v.string(),
  plan_type: v.string(),
  invitation_code: v.optional(v.string()),
  role: v.optional(v.picklist(['owner', 'admin', 'member'])),
});
export type Organization = v.InferOutput<typeof OrganizationSchema>;

export const TokenPairSchema = v.object({ access_token: v.string(), refresh_token: v.string() });
export type TokenPair = v.InferOutput<typeof TokenPairSchema>;

export const AuthResponseSchema = v.object({ user: UserSchema, organization: OrganizationSchema, tokens: TokenPairSchema });
export type AuthResponse = v.InferOutput<typeof AuthResponseSchema>;

export const RefreshSchema = v.object({ refresh_token: v.pipe(text(), v.nonEmpty(apiMessages.refreshInvalid)) });
export const SwitchOrganizationSchema = v.object({ organization_id: v.pipe(text(), v.uuid(genericValidationMessages.uuid)) });
export const SwitchOrganizationResponseSchema = v.object({ tokens: TokenPairSchema, organization: OrganizationSchema });

export const ResetPasswordRequestSchema = v.object({ email: EmailSchema });
export const ResetPasswordConfirmSchema = v.object({
  token: v.pipe(text(m.tokenRequired), v.nonEmpty(m.tokenRequired)),
  password: NewPasswordSchema,
});
/** Change of password by a logged-in user (POST /auth/new-password). */
export const NewPasswordRequestSchema = v.object({
  current_password: v.pipe(text(m.passwordRequired), v.nonEmpty(m.passwordRequired)),
  password: NewPasswordSchema,
});
export const VerifyEmailSchema = v.object({ token: v.pipe(text(m.tokenRequired), v.nonEmpty(m.tokenRequired)) });
export const ResendVerificationSchema = v.object({ email: v.optional(EmailSchema) });

/** POST /auth/logout: the bearer token names the session; a refresh token may be sent instead or as well. */
export const LogoutSchema = v.nullish(v.object({ refresh_token: v.optional(text()) }));
export const VerifyEmailResponseSchema = v.object({ message: v.string(), user: UserSchema });
