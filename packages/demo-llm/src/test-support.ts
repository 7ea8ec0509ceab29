// Shared by the tests: the demo model reached through the real AI SDK provider.
import { createOpenAI } from '@ai-sdk/openai';
import { tool } from 'ai';
import { z } from 'zod';
import { createDemoLlmApp } from './app';

/** The in-process wiring the backend uses: no socket, the app's own fetch. */
export function inProcessModel(delayMs = 0) {
  const app = createDemoLlmApp({ delayMs });
  const provider = createOpenAI({
    baseURL: 'http://demo-llm/v1',
    apiKey: 'demo',
    fetch: (input, init) => Promise.resolve(app.fetch(new Request(input, init))),
  });
  return provider.chat('baton-demo');
}

export function modelAt(baseURL: string) {
  return createOpenAI({ baseURL, apiKey: 'demo' }).chat('baton-demo');
}

export const SUB_AGENTS = [
  '- Researcher (id: agent_res_1): Finds facts and sources.',
  '- Writer (id: agent_wri_2): Turns notes into prose.',
  '- Data Cruncher (id: agent_dc_3): Works with numbers.',
  '- general-purpose (id: general-purpose): Takes on any task.',
].join('\n');

export const newTask = tool({
  description: `Delegate a task to one of your sub-agents. Available sub-agents:\n${SUB_AGENTS}`,
  inputSchema: z.object({ subAgentId: z.string(), task: z.string() }),
});

export const taskResult = tool({
  description: 'Finish your work by reporting the result to the agent that delegated it.',
  inputSchema: z.object({ result: z.string(), status: z.enum(['success', 'error']) }),
});

/** The scratchpad tool; `notes` collects what the model wrote, in order. */
export function noteTool(notes: string[] = []) {
  return tool({
    description: 'Write a short note to your scratchpad.',
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => {
      notes.push(text);
      return { ok: true };
    },
  });
}
