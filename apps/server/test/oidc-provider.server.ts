/**
 * The test OpenID Connect provider as a standalone process, for the end-to-end run (playwright.config.ts starts it
 * beside the app). Env: OIDC_TEST_PORT (the provider's port), OIDC_TEST_REDIRECT_URI.
 */
import { startTestOidcProvider } from './oidc-provider';

const provider = await startTestOidcProvider(process.env.OIDC_TEST_REDIRECT_URI, undefined, {
  port: Number(process.env.OIDC_TEST_PORT ?? 4319),
});
console.log(`test OIDC provider at ${provider.issuer}`);
const stop = async () => {
  await provider.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
