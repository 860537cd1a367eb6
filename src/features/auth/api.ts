/** Auth calls that do not change the session state (the session's own calls live in session.ts). */
import type { User } from '../../contract/auth.js';
import { apiClient } from '../../lib/api-client';

export const verifyEmail = (token: string) =>
  apiClient.post<{ message: string; user?: User }>('/api/v1/auth/verify-email', { token }, { skipAuthRefresh: true });

export const resendVerification = (email?: string) =>
  apiClient.post<{ message: string }>('/api/v1/auth/resend-verification', email ? { email } : {});

export const fetchCurrentUser = () => apiClient.get<User>('/api/v1/auth/me');
