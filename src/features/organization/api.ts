/**
 * Organization calls of the owner's pages (spec sections 7 and 8). Every call turns a failure into
 * the server's message, or the section 8 fallback when the server gave none, logs it and rethrows,
 * so the screens show `error.message` as is.
 */
import { queryOptions } from '@tanstack/react-query';
import type { Organization } from '@contract/auth.js';
import { fallbackMessages } from '@contract/messages.js';
import { DEFAULT_PLAN_TYPE, type UpdateOrganization } from '@contract/organizations.js';
import { organizationRoutes } from '@contract/routes/organizations.js';
import { changeRoutes } from '@contract/routes/changes.js';
import type { ApplySettings } from '@contract/changes.js';
import { ApiError, isAbortError } from '@/lib/api-client';
import { callApi } from '@/lib/call-api';
import { messageOf } from '@/app/session';

export const organizationKeys = {
  all: ['organization'] as const,
  current: () => ['organization', 'current'] as const,
  members: () => ['organization', 'members'] as const,
  invitationCode: () => ['organization', 'invitation-code'] as const,
};

async function withFallback<T>(call: () => Promise<T>, fallback: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isAbortError(error)) throw error;
    console.error(fallback, error);
    const status = error instanceof ApiError ? error.status : 0;
    const body = error instanceof ApiError ? error.body : null;
    throw new ApiError(messageOf(error, fallback), status, body);
  }
}

/** Spec section 3: an organization without a plan is on 'free'. */
export function planTypeOf(organization: Pick<Organization, 'plan_type'> | null | undefined): string {
  return organization?.plan_type || DEFAULT_PLAN_TYPE;
}

export const currentOrganizationQueryOptions = () =>
  queryOptions({
    queryKey: organizationKeys.current(),
    queryFn: ({ signal }) =>
      withFallback(() => callApi(organizationRoutes.current, { signal }), fallbackMessages.loadOrganization),
  });

export const membersQueryOptions = () =>
  queryOptions({
    queryKey: organizationKeys.members(),
    queryFn: ({ signal }) =>
      withFallback(async () => (await callApi(organizationRoutes.members, { signal })).members, fallbackMessages.loadMembers),
  });

export const invitationCodeQueryOptions = () =>
  queryOptions({
    queryKey: organizationKeys.invitationCode(),
    queryFn: ({ signal }) =>
      withFallback(
        async () => (await callApi(organizationRoutes.invitationCode, { signal })).invitation_code,
        fallbackMessages.loadInvitationCode,
      ),
  });

export const updateOrganization = (changes: UpdateOrganization) =>
  withFallback(() => callApi(organizationRoutes.update, { body: changes }), fallbackMessages.updateOrganization);

export const regenerateInvitationCode = () =>
  withFallback(
    async () => (await callApi(organizationRoutes.regenerateInvitationCode)).invitation_code,
    fallbackMessages.regenerateInvitationCode,
  );

export const removeMember = (userId: string) =>
  withFallback(() => callApi(organizationRoutes.removeMember, { params: { userId } }), fallbackMessages.removeMember);

/** Who may apply changes to ad accounts through the API (the lowest role allowed). */
export const applySettingsQueryOptions = () =>
  queryOptions({
    queryKey: [...organizationKeys.all, 'apply-settings'] as const,
    queryFn: ({ signal }) => callApi(changeRoutes.settings, { signal }),
  });

export const updateApplySettings = (settings: ApplySettings) => callApi(changeRoutes.updateSettings, { body: settings });
