export { createProviderSimApp, DEFAULT_SIM_MODEL_ID, type ProviderSimOptions, type ProviderSimState } from './app';
export { behaviourFromEnv, DEFAULT_REASONING_TEXT, type ReasoningField, type SimBehaviour } from './behaviour';
export { startProviderSimulator, type ProviderSimServerOptions, type ProviderSimulator } from './listen';
export { estimatePromptTokens } from './refusals';
