import { z } from 'zod';
import { workspaceRoleSchema } from './access';
import { nameSchema, pageSchema, timestampSchema } from './common';

export const DEFAULT_WORKSPACE_ID = 'default';

export const workspaceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The caller's role in it. */
    role: workspaceRoleSchema,
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Workspace' });
export type Workspace = z.infer<typeof workspaceSchema>;

export const workspaceCreateSchema = z.strictObject({ name: nameSchema }).meta({ id: 'WorkspaceCreate' });
export type WorkspaceCreate = z.infer<typeof workspaceCreateSchema>;

export const workspacePageSchema = pageSchema(workspaceSchema).meta({ id: 'WorkspacePage' });
