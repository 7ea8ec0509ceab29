import type { Readiness } from '@baton/schemas';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { logError } from '../error-text';

/** How long a dependency may take to answer before it counts as down: a load balancer asks often. */
export const READINESS_TIMEOUT_MS = 2_000;

type Check = Readiness['checks']['database'];

const LATE = Symbol('late');

// The endpoint is public (load balancers and orchestrators ask without credentials), so the
// answer names no host, port or driver message; the log has the details.
async function within(ms: number, what: string, probe: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), ms);
  });
  try {
    if ((await Promise.race([probe(), late])) === LATE) return { status: 'down', error: `did not answer within ${ms / 1000} s` };
    return { status: 'ok' };
  } catch (err) {
    logError(`readiness: ${what} is down`, err);
    return { status: 'down', error: 'not reachable' };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this process can serve requests: one query on its database and, with Redis, a PING.
 * Each probe is a fresh request, so the answer turns back to ready as soon as a dependency
 * returns (the pool reconnects by itself); liveness (`/api/health`) never depends on them.
 */
export async function checkReadiness(db: Database, redisPing: (() => Promise<void>) | undefined, timeoutMs = READINESS_TIMEOUT_MS): Promise<Readiness> {
  const [database, redis] = await Promise.all([
    within(timeoutMs, 'the database', () => db.execute(sql`select 1`)),
    redisPing ? within(timeoutMs, 'Redis', redisPing) : Promise.resolve(undefined),
  ]);
  const ok = database.status === 'ok' && (!redis || redis.status === 'ok');
  return { status: ok ? 'ready' : 'unavailable', checks: { database, ...(redis ? { redis } : {}) } };
}
