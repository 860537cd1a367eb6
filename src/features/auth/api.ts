/** Auth calls that do not change the session state (the session's own calls live in session.ts). */
import { authRoutes } from '@contract/routes/auth.js';
import { callApi } from '@/lib/call-api';

export const verifyEmail = (token: string) => callApi(authRoutes.verifyEmail, { body: { token }, skipAuthRefresh: true });

export const resendVerification = (email?: string) => callApi(authRoutes.resendVerification, { body: email ? { email } : {} });

export const fetchCurrentUser = () => callApi(authRoutes.me);
