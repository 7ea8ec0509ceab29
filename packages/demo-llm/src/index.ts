export { createDemoLlmApp, demoLlmApp, demoLlmFetch, delayFromEnv, DEFAULT_DELAY_MS, type DemoLlmOptions } from './app';
export { startDemoLlmServer, type DemoLlmServer, type DemoLlmServerOptions } from './listen';
export {
  decideTurn,
  parseDelegateLines,
  parseFileListing,
  parseSubAgentListing,
  parseToolLines,
  type ScriptedTurn,
  type ScriptedToolCall,
  type ScriptRule,
  type SubAgentListing,
} from './script';
export {
  DEMO_MODEL_ID,
  errorBody,
  estimateUsage,
  contentText,
  randomId,
  validateChatRequest,
  type ChatRequest,
  type ChatMessage,
  type ToolDefinition,
  type Usage,
  type WireToolCall,
} from './wire';
// For the provider simulator (@baton/provider-sim), which speaks the same script with real providers' manners.
export { pause, splitWords } from './sse';
