import { z } from 'zod';

export const databaseKindSchema = z.enum(['pglite', 'postgres']);
export type DatabaseKind = z.infer<typeof databaseKindSchema>;

export const healthSchema = z.object({ status: z.literal('ok'), database: databaseKindSchema }).meta({ id: 'Health' });
export type Health = z.infer<typeof healthSchema>;

/** One dependency's state: `ok`, or why it is not (no addresses, no credentials). */
export const readinessCheckSchema = z.object({ status: z.enum(['ok', 'down']), error: z.string().optional() });

/** `GET /api/health/ready`: whether this backend can serve (its database, and Redis when configured). */
export const readinessSchema = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    checks: z.object({ database: readinessCheckSchema, redis: readinessCheckSchema.optional() }),
  })
  .meta({ id: 'Readiness' });
export type Readiness = z.infer<typeof readinessSchema>;
