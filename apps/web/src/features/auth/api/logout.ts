import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { clearAuthStorage, QUERY_CACHE_STORAGE_KEY } from '../../../lib/storage-keys';

/**
 * Spec §4: signing out clears all cached data and every stored auth key, then goes to /.
 * The server has no session to end yet (the single local owner), so this is all client-side for now.
 */
export function useLogout() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return async () => {
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
