export { factAbout, SNAPSHOT_PDF, SNAPSHOT_PNG, startTestMcpServer, TEST_FACTS, type TestMcpServer, type TestMcpServerOptions } from './server';
export { type OAuthMcpServer, type OAuthMcpServerOptions, startOAuthMcpServer } from './oauth-server';
