import { errorCodes, isAdminRole } from '@baton/schemas';
import type { Context, MiddlewareHandler } from 'hono';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/client';
import { AppError } from '../errors';
import { findMembership, type WorkspaceAccess } from '../services/members';
import { workspaceNotFound } from '../services/workspaces';

/** What the access middlewares leave for the routes. */
export type AppEnv = { Variables: { principal: Principal; access: WorkspaceAccess; requestId: string } };

export const forbidden = (message: string) => new AppError(403, errorCodes.forbidden, message);

/**
 * `/workspaces/:workspaceId/*`: the caller must belong to the workspace (an API key: be
 * bound to it). Otherwise the workspace is "not found", exactly like one that does not
 * exist, so ids of other workspaces reveal nothing.
 */
export function requireWorkspaceAccess(db: Database): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const workspaceId = c.req.param('workspaceId')!;
    const principal = c.get('principal');
    const access = principal.apiKey
      ? principal.apiKey.workspaceId === workspaceId
        ? principal.apiKey
        : undefined
      : await findMembership(db, workspaceId, principal.userId);
    if (!access) throw workspaceNotFound(workspaceId);
    c.set('access', access);
    await next();
  };
}

/** Providers, members, invitations, other people's keys: owner and admins only. */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!isAdminRole(c.get('access').role)) throw forbidden('only workspace admins can do this: ask an admin or the owner');
  await next();
};

/** Things an API key must not do for its holder (mint more keys, join or create workspaces). */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get('principal').apiKey) throw forbidden('API keys cannot do this: sign in to Baton instead');
  await next();
};

export const accessOf = (c: Context<AppEnv>) => c.get('access');
