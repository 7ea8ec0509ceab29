import type { WorkspaceRole } from '@baton/schemas';

export const ROLE_LABELS: Record<WorkspaceRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

/** What each role may do, in the words the members page and invite links use. */
export const ROLE_DESCRIPTIONS: Record<WorkspaceRole, string> = {
  owner: 'everything an admin can, and hands the workspace over',
  admin: 'chats and builds agents, and manages providers, members, invitations and API keys',
  member: 'chats and builds agents; providers are read-only',
};
