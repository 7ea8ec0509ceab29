export { createDemoLlmApp, demoLlmApp, demoLlmFetch, delayFromEnv, DEFAULT_DELAY_MS, type DemoLlmOptions } from './app';
export { startDemoLlmServer, type DemoLlmServer, type DemoLlmServerOptions } from './listen';
export {
  decideTurn,
  parseDelegateLines,
  parseSubAgentListing,
  parseToolLines,
  type ScriptedTurn,
  type ScriptedToolCall,
  type ScriptRule,
  type SubAgentListing,
} from './script';
export { DEMO_MODEL_ID, type ChatRequest, type ChatMessage, type ToolDefinition } from './wire';
