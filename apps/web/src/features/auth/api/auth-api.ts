import {
  AuthMethodsResponseSchema,
  ChallengeResponseSchema,
  EnrolFactorResponseSchema,
  FactorListResponseSchema,
  LogoutResponseSchema,
  OidcStartResponseSchema,
  SessionResponseSchema,
  SignInResponseSchema,
  SignUpResponseSchema,
} from '@invoicebox/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';

/** The sign-in calls of the identity service (server): spec §7 and packages/core/src/api/auth.schema.ts. */
export const authMethodsQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'methods'] as const,
    queryFn: ({ signal }) => api.get('/auth/methods', { schema: AuthMethodsResponseSchema, signal, auth: false }),
    staleTime: 0,
  });

export const useAuthMethods = () => useQuery(authMethodsQueryOptions());

/** The owner's sign-up answers with the session; later ones (open sign-up) with a neutral note to sign in. */
export const signUp = (body: { email: string; password: string; display_name?: string }) =>
  api.post('/auth/local/signup', { schema: SignUpResponseSchema, body, auth: false });

/** `recovery_code`: given with the password, it spares the per-account slow-down of repeated failures. */
export const signIn = (body: { email: string; password: string; recovery_code?: string }) =>
  api.post('/auth/local/signin', { schema: SignInResponseSchema, body, auth: false });

/** Second-factor calls carry the short mfa token of the sign-in answer instead of a backend token. */
export const challengeFactor = (factorId: string, mfaToken: string) =>
  api.post(`/auth/factors/${factorId}/challenge`, {
    schema: ChallengeResponseSchema,
    body: { channel: 'totp' },
    auth: false,
    headers: { Authorization: `Bearer ${mfaToken}` },
  });

export const verifyFactor = (factorId: string, mfaToken: string, body: { code: string; challenge_id: string }) =>
  api.post(`/auth/factors/${factorId}/verify`, {
    schema: SessionResponseSchema,
    body,
    auth: false,
    headers: { Authorization: `Bearer ${mfaToken}` },
  });

export const redeemRecoveryCode = (mfaToken: string, code: string) =>
  api.post('/auth/recovery', {
    schema: SessionResponseSchema,
    body: { code },
    auth: false,
    headers: { Authorization: `Bearer ${mfaToken}` },
  });

/** The one-time code of the server's OIDC callback, for the session (once). */
export const redeemCode = (code: string) =>
  api.post('/auth/code', { schema: SessionResponseSchema, body: { code }, auth: false });

export const startOidc = (provider: string, purpose: 'sign_in' | 'add_account') =>
  api.post(`/auth/oidc/${encodeURIComponent(provider)}/start`, {
    schema: OidcStartResponseSchema,
    body: { purpose },
    auth: purpose === 'add_account',
  });

export const logoutOnServer = () => api.post('/auth/logout', { schema: LogoutResponseSchema });

export const listFactors = () => api.get('/auth/factors', { schema: FactorListResponseSchema });

export const enrolTotp = () =>
  api.post('/auth/factors', {
    schema: EnrolFactorResponseSchema,
    body: { type: 'totp', friendly_name: 'Authenticator app' },
  });

export const removeFactor = (id: string) => api.delete(`/auth/factors/${id}`, { schema: z.unknown() });

/** Verifying a new factor with the backend token replaces the session and returns the recovery codes once. */
export async function confirmTotp(factorId: string, code: string) {
  const { challenge_id } = await api.post(`/auth/factors/${factorId}/challenge`, {
    schema: ChallengeResponseSchema,
    body: { channel: 'totp' },
  });
  return api.post(`/auth/factors/${factorId}/verify`, { schema: SessionResponseSchema, body: { code, challenge_id } });
}
