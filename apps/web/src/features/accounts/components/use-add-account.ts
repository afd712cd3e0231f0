import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { startOidc } from '../../auth/api/auth-api';

/** sessionStorage key marking a provider sign-in started to add an account, read by the callback screen. */
export const ADD_ACCOUNT_MARKER = 'invoicebox:adding_account';

/**
 * '+ Add Gmail Account' / 'Add Account': the provider sign-in for another account of the same person (Google when
 * configured, else the first OIDC provider); with no provider, the IMAP form in Settings.
 */
export function useAddAccount(providers: Array<{ id: string; name: string }>) {
  const navigate = useNavigate();
  return async () => {
    const provider = providers.find((p) => p.id === 'google') ?? providers[0];
    if (!provider) {
      navigate('/settings', { state: { addImap: true } });
      return;
    }
    try {
      const { url } = await startOidc(provider.id, 'add_account');
      window.sessionStorage.setItem(ADD_ACCOUNT_MARKER, String(Date.now()));
      toast.success('Redirecting to Google for account connection...');
      window.location.assign(url);
    } catch {
      toast.error('Failed to start account connection process');
    }
  };
}
