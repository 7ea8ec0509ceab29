import { z } from 'zod';

export const toolInfoSchema = z.object({ id: z.string(), name: z.string(), description: z.string() }).meta({ id: 'ToolInfo' });
export type ToolInfo = z.infer<typeof toolInfoSchema>;
export const toolListSchema = z.object({ data: z.array(toolInfoSchema) }).meta({ id: 'ToolList' });

/** Which model answers agents that name no provider. */
export const defaultModelSchema = z
  .object({
    kind: z.enum(['demo', 'openai']),
    modelId: z.string(),
    /** Shown by the UI when the offline demo model is in use. */
    demoSyntax: z.string().nullable(),
  })
  .meta({ id: 'DefaultModel' });
export type DefaultModel = z.infer<typeof defaultModelSchema>;
export const modelsInfoSchema = z.object({ default: defaultModelSchema }).meta({ id: 'ModelsInfo' });
export type ModelsInfo = z.infer<typeof modelsInfoSchema>;
