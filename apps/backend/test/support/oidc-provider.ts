import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person the test provider knows: `id` is what its sign-in form takes as "login". */
export interface OidcAccount {
  id: string;
  email: string;
  name: string;
  emailVerified?: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider, the certified implementation) on a loopback
 * port, with one confidential client and its development sign-in pages: any password, the
 * account chosen by its id. For the single sign-on tests and the e2e suite.
 */
export async function startOidcProvider(opts: {
  redirectUris: string[];
  accounts: OidcAccount[];
  port?: number;
  clientId?: string;
  clientSecret?: string;
}): Promise<TestOidcProvider> {
  const clientId = opts.clientId ?? 'baton-test-client';
  const clientSecret = opts.clientSecret ?? 'baton-test-client-secret-0123456789';
  const accounts = new Map(opts.accounts.map((a) => [a.id, a]));
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['baton-test-oidc-cookie-key'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: account.email, email_verified: account.emailVerified ?? true, name: account.name }),
      };
    },
  });
  // The development pages warn on every request; the tests know.
  provider.on('server_error', (_ctx, err) => console.error('test OIDC provider:', err));
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Cookies of one site, as a browser keeps them (names and values; paths and expiry are not needed here). */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0\b/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  header(): string {
    return [...this.#cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

/**
 * What a browser does at the provider after Baton sends it there: sign in as `accountId` on the
 * development login page, consent, and be sent back. Returns the URL the provider redirects to
 * (Baton's callback, with the code and state).
 */
export async function signInAtProvider(authorizationUrl: string, accountId: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res);
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url);
      if (next.origin !== url.origin || !next.pathname.match(/^\/(auth|interaction)\b/)) return next;
      url = next;
      continue;
    }
    const page = await res.text();
    if (res.status !== 200) throw new Error(`the provider answered ${res.status}: ${page.slice(0, 300)}`);
    // A development interaction page: the login form, or the consent form.
    const action = page.match(/<form[^>]*action="([^"]+)"/)?.[1];
    if (!action) throw new Error(`no form on the provider's page: ${page.slice(0, 300)}`);
    const form: Record<string, string> = page.includes('name="login"')
      ? { prompt: 'login', login: accountId, password: 'any password' }
      : { prompt: 'consent' };
    const submitted = await fetch(new URL(action, url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
    jar.take(submitted);
    if (submitted.status < 300 || submitted.status >= 400)
      throw new Error(`the provider's form answered ${submitted.status}: ${(await submitted.text()).slice(0, 300)}`);
    url = new URL(submitted.headers.get('location')!, url);
  }
  throw new Error('the provider redirected too often');
}
