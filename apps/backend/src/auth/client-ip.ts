import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** The header better-auth reads the client address from; Baton sets it, a client never can. */
export const CLIENT_IP_HEADER = 'x-baton-client-ip';

const loopback = /^(127\.|::1$|::ffff:127\.)/;

/**
 * The address a request came from. The web app's server forwards browsers' requests from
 * loopback and appends the browser's address to `X-Forwarded-For`, so behind it the last
 * hop is the one to count; anything before it was written by the client and is ignored.
 */
export function clientIp(c: Context): string | undefined {
  let remote: string | undefined;
  try {
    remote = getConnInfo(c).remote.address;
  } catch {
    // Not served by @hono/node-server (tests calling app.request): no socket to ask.
  }
  if (remote && !loopback.test(remote)) return remote;
  const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
  return forwarded || remote || undefined;
}
