import { CheckCircle2, Lock, Mail, ShieldCheck, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { Logo } from '../../components/logo';
import { Button } from '../../components/ui/button';
import { useAuthMethods } from '../../features/auth/api/auth-api';
import { SIGNED_OUT_NOTICE } from '../../features/auth/api/logout';
import { SignInPanel } from '../../features/auth/components/sign-in-panel';
import { DOCS_URL } from '../../lib/links';
import { BeforeAfter } from './before-after';
import { FeatureCards } from './feature-cards';

const PANEL_ID = 'sign-in';

/**
 * The landing page, also shown in place of any signed-in screen when nobody is signed in. Every call to action leads
 * to the sign-in card (a provider such as Google when configured, and the local owner account).
 */
export function SignInScreen() {
  // Log Out lands here with this state: say that it worked.
  const loggedOut = (useLocation().state as { loggedOut?: boolean } | null)?.loggedOut === true;
  const methods = useAuthMethods();
  const [googleHelp, setGoogleHelp] = useState(false);
  // Without Google configured, "Connect Gmail & Drive" says what the operator sets instead of doing nothing.
  const googleMissing = methods.data !== undefined && !methods.data.oidc.some((p) => p.id === 'google');
  const connectGoogle = () => {
    if (googleMissing) setGoogleHelp(true);
    connect();
  };
  const connect = () => {
    const panel = document.getElementById(PANEL_ID);
    panel?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    panel?.querySelector<HTMLElement>('input, button')?.focus({ preventScroll: true });
  };

  return (
    <div className="min-h-screen bg-gradient-to-b from-indigo-50 via-white to-white">
      <header className="mx-auto flex max-w-6xl items-center justify-between px-6 py-5">
        <Logo />
        <Button variant="outline" size="sm" onClick={connect}>
          Sign In
        </Button>
      </header>
      <main>
        {loggedOut ? (
          <p
            role="status"
            className="mx-auto flex max-w-md items-center justify-center gap-2 rounded-lg bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-800"
          >
            <CheckCircle2 className="h-4 w-4" aria-hidden="true" />
            {SIGNED_OUT_NOTICE}
          </p>
        ) : null}
        <section className="mx-auto max-w-4xl px-6 pt-12 pb-16 text-center sm:pt-20">
          <p className="inline-flex items-center gap-2 rounded-full bg-indigo-100 px-3 py-1 text-sm font-medium text-indigo-700">
            <Sparkles className="h-4 w-4" aria-hidden="true" />
            Invoices found, filed and reconciled
          </p>
          <h1 className="mt-6 text-4xl font-bold tracking-tight text-slate-900 sm:text-6xl">
            Every invoice in your inbox, <span className="text-indigo-600">organized automatically</span>
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">
            Invoicebox scans your mail for invoices, files them in your drive by date, extracts their data and matches
            them against your bank statements.
          </p>
          <div className="mt-10 flex flex-col items-center gap-4">
            <Button size="lg" onClick={connectGoogle} aria-describedby={googleHelp ? 'google-setup' : undefined}>
              <Mail className="h-5 w-5" aria-hidden="true" />
              Connect Gmail & Drive
            </Button>
            {googleHelp ? (
              <p
                id="google-setup"
                role="status"
                className="max-w-xl rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
              >
                Gmail & Drive sign-in is not set up on this server. An operator sets <code>GOOGLE_CLIENT_ID</code> and{' '}
                <code>GOOGLE_CLIENT_SECRET</code> and restarts it (see{' '}
                <a className="font-medium underline" href={`${DOCS_URL}#configuration`}>
                  Configuration in the README
                </a>
                ). Meanwhile, create your account below: then connect any mailbox over IMAP, upload your mail, or try it
                with sample data.
              </p>
            ) : null}
            <div className="mt-4 w-full">
              <SignInPanel id={PANEL_ID} />
            </div>
            <ul className="flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-slate-500">
              <li className="inline-flex items-center gap-1.5">
                <Lock className="h-4 w-4" aria-hidden="true" /> Secure OAuth
              </li>
              <li className="inline-flex items-center gap-1.5">
                <ShieldCheck className="h-4 w-4" aria-hidden="true" /> No access to email content
              </li>
              <li className="inline-flex items-center gap-1.5">
                <Sparkles className="h-4 w-4" aria-hidden="true" /> Free setup
              </li>
            </ul>
          </div>
        </section>
        <FeatureCards />
        <BeforeAfter />
        <section className="mx-auto max-w-4xl px-6 py-16">
          <div className="rounded-2xl bg-indigo-600 px-8 py-12 text-center text-white shadow-lg">
            <h2 className="text-3xl font-bold">Ready to stop hunting for invoices?</h2>
            <p className="mt-3 text-indigo-100">Connect your mailbox and let Invoicebox do the filing.</p>
            <Button
              size="lg"
              variant="secondary"
              className="mt-8 bg-white text-indigo-700 hover:bg-indigo-50"
              onClick={connect}
            >
              Get Started Free
            </Button>
          </div>
        </section>
      </main>
      <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-500">
        © {new Date().getFullYear()} Invoicebox
      </footer>
    </div>
  );
}
