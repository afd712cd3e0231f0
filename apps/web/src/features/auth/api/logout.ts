import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '../../../lib/api-client';
import { clearAuthStorage, QUERY_CACHE_STORAGE_KEY } from '../../../lib/storage-keys';
import { logoutOnServer } from './auth-api';

/** Spec §8 toasts of ending the session at the identity service (the server). */
export const SIGN_OUT_ERROR = 'An error occurred while signing out. Please try again.';
/** Spec §8: said on the sign-in screen the person lands on after Log Out. */
export const SIGNED_OUT_NOTICE = 'You have been signed out successfully.';

/**
 * Spec §4: signing out ends the server session, clears all cached data and every stored auth key, then goes to /.
 * A session the server already forgot (401) still signs out locally; a server that could not end it (unreachable,
 * 5xx) leaves the person signed in with SIGN_OUT_ERROR, since the session would stay valid there.
 */
export function useLogout() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    try {
      await logoutOnServer();
    } catch (error) {
      if (!(error instanceof ApiError && (error.status === 401 || error.status === 404))) {
        toast.error(SIGN_OUT_ERROR);
        return;
      }
    }
    try {
      await client.cancelQueries();
      client.clear();
      clearAuthStorage();
      window.localStorage.removeItem(QUERY_CACHE_STORAGE_KEY);
      toast.success('Logged out successfully');
      navigate('/', { state: { loggedOut: true } });
    } catch {
      toast.error('Failed to logout');
    }
  };
}
