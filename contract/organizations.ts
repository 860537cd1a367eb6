import * as v from 'valibot';
import { text } from './text.js';
import { OrganizationNameSchema } from './auth.js';
import { UuidSchema } from './common.js';
import { organizationMessages as m } from './messages.js';

// /api/v1/organizations/*: the caller's organizations, the current one, its invitation code and members.

export const organizationRoles = ['owner', 'admin', 'member'] as const;
export const OrganizationRoleSchema = v.picklist(organizationRoles);
export type OrganizationRole = v.InferOutput<typeof OrganizationRoleSchema>;

/** Spec section 9: an organization without a plan is on 'free'. */
export const DEFAULT_PLAN_TYPE = 'free';

/** One organization as seen by a member; `invitation_code` only for owners and admins. */
export const CurrentOrganizationSchema = v.object({
  id: v.string(),
  name: v.string(),
  plan_type: v.string(),
  invitation_code: v.optional(v.string()),
  role: OrganizationRoleSchema,
});
export type CurrentOrganization = v.InferOutput<typeof CurrentOrganizationSchema>;

/** GET /organizations: every organization of the caller, for the organization switcher. */
export const OrganizationListSchema = v.object({
  organizations: v.array(v.object({ id: v.string(), name: v.string(), plan_type: v.string(), role: OrganizationRoleSchema })),
});
export type OrganizationList = v.InferOutput<typeof OrganizationListSchema>;

/** Plan names are short machine words ('free', 'pro', …); the platform admin sets them. */
export const PlanTypeSchema = v.pipe(text(m.planTypeInvalid), v.trim(), v.regex(/^[a-z][a-z0-9_-]{1,29}$/, m.planTypeInvalid));

/** PUT /organizations/current: every field optional; plan_type is for platform admins only. */
export const UpdateOrganizationSchema = v.object(
  {
    name: v.optional(OrganizationNameSchema),
    plan_type: v.optional(PlanTypeSchema),
  },
  m.bodyInvalid,
);
export type UpdateOrganization = v.InferOutput<typeof UpdateOrganizationSchema>;

export const UserRoleResponseSchema = v.object({ role: OrganizationRoleSchema });
export const InvitationCodeResponseSchema = v.object({ invitation_code: v.string() });

export const MemberSchema = v.object({
  user_id: v.string(),
  email: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  full_name: v.string(),
  role: OrganizationRoleSchema,
  /** ISO timestamp of joining the organization. */
  joined_at: v.string(),
  /** The member's token balance: shown to the owner only, who can move tokens to and from members. */
  balance: v.optional(v.number()),
  /** Shown to the owner with the balance: what the owner gave this member and may still move back. */
  returnable: v.optional(v.number()),
});
export type Member = v.InferOutput<typeof MemberSchema>;
export const MemberListSchema = v.object({ members: v.array(MemberSchema) });
export type MemberList = v.InferOutput<typeof MemberListSchema>;

export const MemberParamsSchema = v.object({ userId: UuidSchema });
