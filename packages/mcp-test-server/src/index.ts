export { factAbout, startTestMcpServer, TEST_FACTS, type TestMcpServer, type TestMcpServerOptions } from './server';
