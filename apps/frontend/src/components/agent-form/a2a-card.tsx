'use client';

import { Card } from '../ui/card';
import { CopyField } from '../ui/copy-field';
import { SwitchRow } from './switch-row';

/** Where A2A clients read the agent's card: the web app's own address (it forwards `/a2a` to the backend). */
export function agentCardUrl(origin: string, agentId: string) {
  return `${origin}/a2a/${encodeURIComponent(agentId)}/.well-known/agent-card.json`;
}

/**
 * Publishing the agent over A2A: off by default. Once on (and saved), any A2A client with an
 * API key of this workspace can read its card and send it tasks, which run as chats of the key's owner.
 */
export function A2ACard({
  agentId,
  published,
  savedPublished,
  readOnly = false,
  onChange,
}: {
  agentId?: string;
  published: boolean;
  savedPublished: boolean;
  readOnly?: boolean;
  onChange: (on: boolean) => void;
}) {
  const url = agentId && typeof window !== 'undefined' ? agentCardUrl(window.location.origin, agentId) : undefined;
  return (
    <Card title="A2A" description="Let other agents call this one over the Agent2Agent (A2A) protocol.">
      <ul>
        <SwitchRow
          label="Publish over A2A"
          description="A2A clients with an API key of this workspace can read its Agent Card and send it tasks; each task runs as a chat of the key's owner, with delegation on the server."
          checked={published}
          disabled={readOnly}
          onCheckedChange={onChange}
        />
      </ul>
      {published && url && savedPublished && <CopyField id="agent-a2a-card-url" label="Agent Card URL" value={url} />}
      {published && (!url || !savedPublished) && <p className="text-sm text-neutral-600 dark:text-neutral-400">Save the agent to get its Agent Card URL.</p>}
    </Card>
  );
}
