/** Auth calls that do not change the session state (the session's own calls live in session.ts). */
import { routes } from '../../contract/routes/index.js';
import { callApi } from '../../lib/call-api';

export const verifyEmail = (token: string) => callApi(routes.auth.verifyEmail, { body: { token }, skipAuthRefresh: true });

export const resendVerification = (email?: string) => callApi(routes.auth.resendVerification, { body: email ? { email } : {} });

export const fetchCurrentUser = () => callApi(routes.auth.me);
