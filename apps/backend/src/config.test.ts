import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('loadConfig: the default model', () => {
  it('is the demo model inside the backend when nothing is configured', () => {
    expect(loadConfig({}).defaultModel).toEqual({ kind: 'demo' });
  });

  it('is a standalone demo model with BATON_DEMO_MODEL_URL', () => {
    expect(loadConfig({ BATON_DEMO_MODEL_URL: 'http://127.0.0.1:4010/v1' }).defaultModel).toEqual({
      kind: 'demo',
      baseURL: 'http://127.0.0.1:4010/v1',
    });
  });

  it('refuses a BATON_DEMO_MODEL_URL that is not an http(s) URL, naming it', () => {
    expect(() => loadConfig({ BATON_DEMO_MODEL_URL: 'localhost:4010' })).toThrow(/BATON_DEMO_MODEL_URL/);
    expect(() => loadConfig({ BATON_DEMO_MODEL_URL: 'not a url' })).toThrow(/BATON_DEMO_MODEL_URL/);
  });

  it('prefers a real model (OPENAI_API_KEY) over the demo model', () => {
    const config = loadConfig({ OPENAI_API_KEY: 'sk-test', BATON_DEMO_MODEL_URL: 'http://127.0.0.1:4010/v1' });
    expect(config.defaultModel).toMatchObject({ kind: 'openai', modelId: 'gpt-4o-mini' });
  });

  it('takes the default model’s context window from BATON_DEFAULT_CONTEXT_WINDOW, and refuses one that is not a number of tokens', () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-test', BATON_DEFAULT_CONTEXT_WINDOW: '40960' }).defaultModel).toMatchObject({ contextWindow: 40_960 });
    expect(loadConfig({ BATON_DEFAULT_CONTEXT_WINDOW: '2000' }).defaultModel).toEqual({ kind: 'demo', contextWindow: 2_000 });
    expect(() => loadConfig({ BATON_DEFAULT_CONTEXT_WINDOW: '32k' })).toThrow(/BATON_DEFAULT_CONTEXT_WINDOW/);
  });
});

describe('loadConfig: trusted proxies', () => {
  it('stops the start on a BATON_TRUSTED_PROXIES entry that is no address or range', () => {
    expect(() => loadConfig({ BATON_TRUSTED_PROXIES: '10.0.0.0/8, proxy.internal' })).toThrow(/BATON_TRUSTED_PROXIES: "proxy.internal"/);
    expect(loadConfig({ BATON_TRUSTED_PROXIES: '10.0.0.0/8' }).auth.trustedProxies?.ranges).toHaveLength(1);
  });
});

describe('loadConfig: run timings', () => {
  it('stores a streaming answer every second by default; BATON_RUN_SNAPSHOT_MS changes it, and nonsense stops the start', () => {
    expect(loadConfig({}).runTimings).toEqual({ heartbeatMs: 5_000, staleAfterMs: 30_000, sweepMs: 10_000, snapshotMs: 1_000 });
    expect(loadConfig({ BATON_RUN_SNAPSHOT_MS: '250' }).runTimings.snapshotMs).toBe(250);
    expect(() => loadConfig({ BATON_RUN_SNAPSHOT_MS: '1s' })).toThrow(/BATON_RUN_SNAPSHOT_MS/);
  });
});

describe('loadConfig: limits', () => {
  it('takes an MCP tool call’s deadline from BATON_MCP_CALL_TIMEOUT_MS (60 s by default), and refuses one that is not a number of milliseconds', () => {
    expect(loadConfig({}).mcpCallTimeoutMs).toBe(60_000);
    expect(loadConfig({ BATON_MCP_CALL_TIMEOUT_MS: '5000' }).mcpCallTimeoutMs).toBe(5_000);
    expect(() => loadConfig({ BATON_MCP_CALL_TIMEOUT_MS: '0' })).toThrow(/BATON_MCP_CALL_TIMEOUT_MS/);
    expect(() => loadConfig({ BATON_MCP_CALL_TIMEOUT_MS: '1m' })).toThrow(/BATON_MCP_CALL_TIMEOUT_MS/);
  });
});

describe('loadConfig: what a provider may send', () => {
  it('has limits by default, read from the environment, and refuses values that are not whole numbers', () => {
    expect(loadConfig({}).providerLimits).toEqual({
      maxToolCallsPerStep: 64,
      maxAnswerChars: 1_000_000,
      maxResponseBytes: 64 * 1024 * 1024,
      maxEventBytes: 4 * 1024 * 1024,
    });
    const set = loadConfig({
      BATON_MAX_TOOL_CALLS_PER_STEP: '128',
      BATON_MAX_ANSWER_CHARS: '2000',
      BATON_MODEL_MAX_RESPONSE_BYTES: '1048576',
      BATON_MODEL_MAX_EVENT_BYTES: '65536',
    }).providerLimits;
    expect(set).toEqual({ maxToolCallsPerStep: 128, maxAnswerChars: 2_000, maxResponseBytes: 1_048_576, maxEventBytes: 65_536 });
    expect(() => loadConfig({ BATON_MAX_ANSWER_CHARS: '1MB' })).toThrow(/BATON_MAX_ANSWER_CHARS/);
    // A delegation batch (10 calls) must fit in a step.
    expect(() => loadConfig({ BATON_MAX_TOOL_CALLS_PER_STEP: '5' })).toThrow(/BATON_MAX_TOOL_CALLS_PER_STEP must be at least 10/);
  });
});

describe('loadConfig: files', () => {
  it('has a 20 MiB limit, every type and 10 files a message by default; BATON_FILE_MAX_BYTES, BATON_FILE_TYPES and BATON_FILE_MAX_PER_MESSAGE change them, and nonsense stops the start', () => {
    expect(loadConfig({}).files).toEqual({
      limits: { maxBytes: 20 * 1024 * 1024, mediaTypes: expect.arrayContaining(['image/png', 'application/pdf', 'text/plain']), maxPerMessage: 10 },
    });
    const narrowed = loadConfig({ BATON_FILE_MAX_BYTES: '1048576', BATON_FILE_TYPES: 'text/plain, image/png', BATON_FILE_MAX_PER_MESSAGE: '3' }).files.limits;
    expect(narrowed).toEqual({ maxBytes: 1_048_576, mediaTypes: ['image/png', 'text/plain'], maxPerMessage: 3 });
    expect(() => loadConfig({ BATON_FILE_MAX_PER_MESSAGE: '0' })).toThrow(/BATON_FILE_MAX_PER_MESSAGE/);
    expect(() => loadConfig({ BATON_FILE_MAX_BYTES: '20MB' })).toThrow(/BATON_FILE_MAX_BYTES/);
    expect(() => loadConfig({ BATON_FILE_MAX_BYTES: String(2 * 1024 ** 3) })).toThrow(/at most .* \(1 GiB\)/);
    expect(() => loadConfig({ BATON_FILE_TYPES: 'image/svg+xml' })).toThrow(/BATON_FILE_TYPES: "image\/svg\+xml"/);
  });

  it('keeps files in the database unless BATON_S3_* is set; then bucket and keys are required', () => {
    expect(loadConfig({}).files.s3).toBeUndefined();
    expect(
      loadConfig({
        BATON_S3_ENDPOINT: 'http://minio:9000',
        BATON_S3_BUCKET: 'baton',
        BATON_S3_ACCESS_KEY_ID: 'id',
        BATON_S3_SECRET_ACCESS_KEY: 'secret',
        BATON_S3_FORCE_PATH_STYLE: 'true',
      }).files.s3,
    ).toEqual({ endpoint: 'http://minio:9000', bucket: 'baton', accessKeyId: 'id', secretAccessKey: 'secret', region: 'us-east-1', forcePathStyle: true });
    expect(
      loadConfig({ BATON_S3_BUCKET: 'b', BATON_S3_ACCESS_KEY_ID: 'i', BATON_S3_SECRET_ACCESS_KEY: 's', BATON_S3_REGION: 'eu-west-1' }).files.s3?.endpoint,
    ).toBe('https://s3.eu-west-1.amazonaws.com');
    expect(() => loadConfig({ BATON_S3_BUCKET: 'baton' })).toThrow(/BATON_S3_ACCESS_KEY_ID must be set/);
    expect(() => loadConfig({ BATON_S3_ENDPOINT: 'ftp://x', BATON_S3_BUCKET: 'b', BATON_S3_ACCESS_KEY_ID: 'i', BATON_S3_SECRET_ACCESS_KEY: 's' })).toThrow(
      /BATON_S3_ENDPOINT/,
    );
  });
});

describe('loadConfig: CORS origins', () => {
  it('lists none by default, origins as written (a trailing slash dropped), and refuses what is not an origin', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ BATON_CORS_ORIGINS: ' https://app.example.com/, http://localhost:5173 ' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(loadConfig({ BATON_CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    for (const bad of ['app.example.com', 'https://app.example.com/path', 'ftp://x.example']) {
      expect(() => loadConfig({ BATON_CORS_ORIGINS: bad }), bad).toThrow(/BATON_CORS_ORIGINS/);
    }
  });
});

describe('loadConfig: metrics', () => {
  it('has none unless BATON_METRICS_TOKEN is set, and refuses a token that is short or has spaces (without printing it)', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ BATON_METRICS_TOKEN: '  ' }).metricsToken).toBeUndefined();
    expect(loadConfig({ BATON_METRICS_TOKEN: ' 0123456789abcdef ' }).metricsToken).toBe('0123456789abcdef');
    for (const token of ['short-token', '0123456789 abcdef']) {
      expect(() => loadConfig({ BATON_METRICS_TOKEN: token })).toThrow(/BATON_METRICS_TOKEN must be at least 16 characters/);
      expect(() => loadConfig({ BATON_METRICS_TOKEN: token })).not.toThrow(token);
    }
  });
});

describe('loadConfig: mail and single sign-on', () => {
  it('sends no mail and offers no single sign-on unless configured', () => {
    const config = loadConfig({});
    expect(config.mail).toBeUndefined();
    expect(config.auth.sso).toBeUndefined();
  });

  it('takes an SMTP URL with its From address, and refuses either without the other or a URL that is not smtp(s)', () => {
    expect(loadConfig({ BATON_SMTP_URL: 'smtp://u:p@mail.example.com:587', BATON_SMTP_FROM: 'Baton <b@example.com>' }).mail).toEqual({
      smtpUrl: 'smtp://u:p@mail.example.com:587',
      from: 'Baton <b@example.com>',
    });
    expect(() => loadConfig({ BATON_SMTP_URL: 'smtp://mail.example.com' })).toThrow(/BATON_SMTP_FROM/);
    expect(() => loadConfig({ BATON_SMTP_URL: 'https://mail.example.com', BATON_SMTP_FROM: 'b@example.com' })).toThrow(/BATON_SMTP_URL/);
  });

  it('builds the discovery URL from the issuer, needs the client id and secret, and defaults label and scopes', () => {
    const sso = loadConfig({ BATON_OIDC_ISSUER: 'https://id.example.com/realms/acme/', BATON_OIDC_CLIENT_ID: 'baton', BATON_OIDC_CLIENT_SECRET: 's3cret' }).auth
      .sso;
    expect(sso).toEqual({
      discoveryUrl: 'https://id.example.com/realms/acme/.well-known/openid-configuration',
      clientId: 'baton',
      clientSecret: 's3cret',
      label: 'single sign-on',
      scopes: ['openid', 'email', 'profile'],
      linkByEmail: false,
    });
    expect(() => loadConfig({ BATON_OIDC_ISSUER: 'https://id.example.com' })).toThrow(/BATON_OIDC_CLIENT_ID/);
    expect(() => loadConfig({ BATON_OIDC_ISSUER: 'id.example.com', BATON_OIDC_CLIENT_ID: 'x', BATON_OIDC_CLIENT_SECRET: 'y' })).toThrow(/http/);
    expect(() =>
      loadConfig({ BATON_OIDC_ISSUER: 'https://id.example.com', BATON_OIDC_CLIENT_ID: 'x', BATON_OIDC_CLIENT_SECRET: 'y', BATON_OIDC_LINK_BY_EMAIL: 'yes' }),
    ).toThrow(/BATON_OIDC_LINK_BY_EMAIL/);
  });
});
