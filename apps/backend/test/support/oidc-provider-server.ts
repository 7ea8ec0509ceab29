import { startOidcProvider } from './oidc-provider';

/**
 * The e2e suite's OpenID Connect provider (playwright.config.ts starts it before the backend):
 * `OIDC_PORT`, the client's `OIDC_REDIRECT_URI`, and the people it knows (sign in with their id
 * on its development login page, any password).
 */
const provider = await startOidcProvider({
  port: Number(process.env.OIDC_PORT),
  redirectUris: [process.env.OIDC_REDIRECT_URI!],
  clientId: process.env.OIDC_CLIENT_ID,
  clientSecret: process.env.OIDC_CLIENT_SECRET,
  accounts: [
    { id: 'katherine', email: 'katherine@sso.test', name: 'Katherine Johnson' },
    { id: 'dorothy', email: 'dorothy@sso.test', name: 'Dorothy Vaughan' },
  ],
});
console.log(`test OIDC provider: ${provider.issuer}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void provider.close().then(() => process.exit(0)));
