'use client';

import type { Agent } from '@baton/schemas';
import { Cpu } from 'lucide-react';
import { api } from '@/lib/api-client';
import { useDefaultModel } from '@/lib/use-default-model';
import { useApiQuery } from '@/lib/use-api-query';
import { queryKeys } from '@/lib/queries';

/**
 * Which model answers in this chat: the agent's provider and model id, or — for an agent
 * without a provider — the default model ("Demo model" when that is the offline demo).
 */
export function ChatModel({ workspaceId, agent }: { workspaceId: string; agent: Pick<Agent, 'providerId' | 'modelId'> }) {
  const fallback = useDefaultModel();
  const providers = useApiQuery(queryKeys.providers(workspaceId), () => api.providers.listAll(workspaceId), { enabled: Boolean(agent.providerId) });
  let label: string | null = null;
  if (agent.providerId) {
    const provider = providers.data?.find((p) => p.id === agent.providerId);
    if (provider) label = `${provider.name} · ${agent.modelId ?? 'no model chosen'}`;
  } else if (fallback) {
    label = fallback.kind === 'demo' ? 'Demo model' : (agent.modelId ?? fallback.modelId);
  }
  if (!label) return null;
  return (
    <span
      data-testid="chat-model"
      title={`Model: ${label}`}
      className="inline-flex min-w-0 items-center gap-1 truncate rounded-full bg-neutral-100 px-2 py-0.5 text-xs text-neutral-600 dark:bg-neutral-800 dark:text-neutral-300"
    >
      <Cpu className="h-3 w-3 shrink-0" aria-hidden />
      <span className="sr-only">Model: </span>
      <span className="truncate">{label}</span>
    </span>
  );
}
