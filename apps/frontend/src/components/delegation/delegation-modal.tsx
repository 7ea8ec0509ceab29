'use client';

/** CONTRACT (owned by the delegation work): the sub-agent modal of one parent chat. */
export function DelegationModal(_props: { workspaceId: string; parentChatId: string }) {
  return null;
}
