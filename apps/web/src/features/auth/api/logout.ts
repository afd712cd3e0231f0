import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { clearAuthStorage, QUERY_CACHE_STORAGE_KEY } from '../../../lib/storage-keys';
import { logoutOnServer } from './auth-api';

/**
 * Spec §4: signing out ends the server session, clears all cached data and every stored auth key, then goes to /.
 * A session the server already forgot still signs out locally.
 */
export function useLogout() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    try {
      await logoutOnServer().catch(() => undefined);
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
