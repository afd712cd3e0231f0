import { Navigate, useLocation } from 'react-router';
import { useMe } from '../../features/auth/api/get-me';
import { SignInScreen } from './sign-in-screen';

/** Spec §2 '/': the landing and sign-in; a signed-in user goes straight to the dashboard. */
export function LandingRoute() {
  const me = useMe();
  const location = useLocation();
  // Right after Log Out the local owner is still valid on the server; stay on the landing for that visit.
  const justLoggedOut = (location.state as { loggedOut?: boolean } | null)?.loggedOut === true;
  if (me.data && !justLoggedOut) return <Navigate to="/dashboard" replace />;
  return <SignInScreen />;
}
