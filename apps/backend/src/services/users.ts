import { eq } from 'drizzle-orm';
import type { User } from '@baton/schemas';
import type { Database } from '../db/client';
import { user } from '../db/schema';
import { notFound } from '../errors';

export async function findUser(db: Database, id: string): Promise<User> {
  const [row] = await db.select({ id: user.id, name: user.name, email: user.email }).from(user).where(eq(user.id, id)).limit(1);
  if (!row) throw notFound('User', id);
  return row;
}
