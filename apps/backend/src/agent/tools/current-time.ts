import { tool } from 'ai';
import { z } from 'zod';

export const currentTimeTool = tool({
  description: 'Returns the current date and time, in UTC and optionally in an IANA time zone.',
  inputSchema: z.object({
    timeZone: z.string().max(64).optional().describe('An IANA time zone such as "Europe/Paris"'),
  }),
  execute: async ({ timeZone }) => {
    const now = new Date();
    const result: Record<string, string> = { utc: now.toISOString() };
    if (timeZone) {
      try {
        result.local = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'long', timeZone }).format(now);
        result.timeZone = timeZone;
      } catch {
        result.error = `unknown time zone "${timeZone}"`;
      }
    }
    return result;
  },
});
