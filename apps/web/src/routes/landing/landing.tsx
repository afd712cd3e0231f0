import { Navigate } from 'react-router';
import { useMe } from '../../features/auth/api/get-me';
import { SignInScreen } from './sign-in-screen';

/** Spec §2 '/': the landing and sign-in; a signed-in user goes straight to the dashboard. */
export function LandingRoute() {
  const me = useMe();
  if (me.data) return <Navigate to="/dashboard" replace />;
  return <SignInScreen />;
}
