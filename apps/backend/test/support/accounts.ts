/** Signing up, in and creating API keys over HTTP, for in-process apps and backend processes alike. */
export type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

export interface Account {
  userId: string;
  email: string;
  /** `Cookie` header value of the account's session. */
  cookie: string;
}

export const TEST_PASSWORD = 'correct horse battery';

function sessionCookie(res: Response): string {
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const session = cookies.find((c) => c.startsWith('baton.session_token='));
  if (!session) throw new Error(`no session cookie in the response (HTTP ${res.status})`);
  return session;
}

async function expectOk(res: Response, what: string): Promise<any> {
  const body = await res.json().catch(() => undefined);
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body;
}

const jsonPost = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

export async function signUp(fetcher: Fetcher, who: { email: string; name?: string; password?: string; inviteToken?: string }): Promise<Account> {
  const res = await fetcher(
    '/api/auth/sign-up/email',
    jsonPost({
      name: who.name ?? who.email.split('@')[0],
      email: who.email,
      password: who.password ?? TEST_PASSWORD,
      ...(who.inviteToken ? { inviteToken: who.inviteToken } : {}),
    }),
  );
  const body = await expectOk(res.clone(), `sign-up of ${who.email}`);
  return { userId: body.user.id, email: who.email, cookie: sessionCookie(res) };
}

export async function signIn(fetcher: Fetcher, email: string, password = TEST_PASSWORD): Promise<Account> {
  const res = await fetcher('/api/auth/sign-in/email', jsonPost({ email, password }));
  const body = await expectOk(res.clone(), `sign-in of ${email}`);
  return { userId: body.user.id, email, cookie: sessionCookie(res) };
}

export async function createApiKey(fetcher: Fetcher, account: Account, workspaceId = 'default', name = 'tests'): Promise<{ id: string; key: string }> {
  const res = await fetcher(`/api/workspaces/${workspaceId}/api-keys`, jsonPost({ name }, { cookie: account.cookie }));
  return expectOk(res, `creating an API key for ${account.email}`);
}

export async function invite(fetcher: Fetcher, admin: Account, workspaceId = 'default', role: 'admin' | 'member' = 'member'): Promise<string> {
  const res = await fetcher(`/api/workspaces/${workspaceId}/invitations`, jsonPost({ role }, { cookie: admin.cookie }));
  return (await expectOk(res, 'creating an invitation')).token;
}

/** A new account that joined `workspaceId` through an invitation from `admin`. */
export async function invitedAccount(
  fetcher: Fetcher,
  admin: Account,
  email: string,
  opts: { workspaceId?: string; role?: 'admin' | 'member' } = {},
): Promise<Account> {
  const inviteToken = await invite(fetcher, admin, opts.workspaceId, opts.role);
  return signUp(fetcher, { email, inviteToken });
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
