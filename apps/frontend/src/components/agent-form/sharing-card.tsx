'use client';

import { type Agent, type AgentEditableBy, agentRefusalReason } from '@baton/schemas';
import { Lock } from 'lucide-react';
import { Card } from '../ui/card';
import { SwitchRow } from './switch-row';

/**
 * Who may edit the agent besides its author and the admins. The switch is the author's and
 * admins' (`canShare`); everyone else reads what it is set to and who decides.
 */
export function SharingCard({ agent, editableBy, onChange }: { agent?: Agent; editableBy: AgentEditableBy; onChange: (value: AgentEditableBy) => void }) {
  const shared = editableBy === 'workspace';
  const canShare = agent ? agent.canShare : true;
  const author = agent ? (agent.authorName ?? 'nobody (the author’s account is gone)') : 'you';
  return (
    <Card title="Who can edit" description={`Everyone in the workspace can use this agent. Author: ${author}.`}>
      {canShare ? (
        <ul>
          <SwitchRow
            label="Members can edit"
            description={
              shared
                ? 'Every member can change this agent. Only its author and admins can delete it or switch this off.'
                : 'Off: only its author and the workspace’s admins can change or delete it.'
            }
            checked={shared}
            onCheckedChange={(on) => onChange(on ? 'workspace' : 'author')}
          />
        </ul>
      ) : (
        <p className="flex items-start gap-2 text-sm text-neutral-700 dark:text-neutral-300">
          <Lock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>
            {shared ? 'Every member can edit this agent. ' : 'Only its author and admins can edit this agent. '}
            {agentRefusalReason(agent!, agent!.authorName, 'share')}.
          </span>
        </p>
      )}
    </Card>
  );
}

/** Shown above a form the caller may not change: why, and what they can still do. */
export function ReadOnlyNotice({ agent }: { agent: Agent }) {
  return (
    <div
      role="note"
      aria-label="Read-only"
      className="flex items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-200"
    >
      <Lock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <div>
        <p className="font-medium">You can use this agent, not change it</p>
        <p className="mt-0.5 text-amber-800 dark:text-amber-300">{agentRefusalReason(agent, agent.authorName, 'edit')}.</p>
      </div>
    </div>
  );
}
