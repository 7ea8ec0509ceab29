'use client';

import { GENERAL_PURPOSE_LISTING, offerableSubAgentIds, offersGeneralPurpose } from '@baton/delegation';
import { delegationRetryRequestSchema } from '@baton/schemas';
import { useEffect, useState, type FormEvent } from 'react';
import { workspaceAgents } from '@/lib/queries';
import { sortedByName } from '@/lib/by-name';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { controlProps, Field } from '../ui/field';
import { retryDelegation } from './retry-delegation';

interface RetryDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  workspaceId: string;
  parentChatId: string;
  toolCallId: string;
  /** The agent that delegated: its sub-agents are the choices. */
  parentAgentId?: string;
  subAgentId?: string;
  task: string;
}

type Choice = { id: string; name: string };

/** The sub-agents the delegating agent may hand a task to (the server checks the same rule). */
async function choicesFor(workspaceId: string, parentAgentId: string | undefined): Promise<Choice[]> {
  const agents = await workspaceAgents(workspaceId);
  const root = parentAgentId ? agents.get(parentAgentId) : undefined;
  if (!root) return [];
  const position = { chain: [root.id], depth: 0 };
  const offered = offerableSubAgentIds(root.subAgentIds, position, root.delegation).flatMap((id) => {
    const agent = agents.get(id);
    return agent ? [{ id, name: agent.name }] : [];
  });
  return offersGeneralPurpose(position, root.delegation) ? [...offered, { id: GENERAL_PURPOSE_LISTING.id, name: GENERAL_PURPOSE_LISTING.name }] : offered;
}

/** Run a finished delegation again: the same or another sub-agent, the task as it was or edited. */
export function RetryDialog({ open, onOpenChange, workspaceId, parentChatId, toolCallId, parentAgentId, subAgentId, task }: RetryDialogProps) {
  const [choices, setChoices] = useState<Choice[]>();
  const [agent, setAgent] = useState(subAgentId ?? '');
  const [text, setText] = useState(task);
  const [taskError, setTaskError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setAgent(subAgentId ?? '');
    setText(task);
    setTaskError(undefined);
    setFormError(undefined);
    let live = true;
    choicesFor(workspaceId, parentAgentId)
      .then((found) => {
        if (!live) return;
        setChoices(found);
        if (!found.some((c) => c.id === subAgentId) && found[0]) setAgent(found[0].id);
      })
      .catch((err: Error) => live && setFormError(`The sub-agents could not be loaded: ${err.message}`));
    return () => {
      live = false;
    };
  }, [open, workspaceId, parentAgentId, subAgentId, task]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = delegationRetryRequestSchema.safeParse({ subAgentId: agent || undefined, task: text });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setTaskError(`The task ${issue?.message ?? 'is invalid'}`);
      return;
    }
    setBusy(true);
    setFormError(undefined);
    try {
      await retryDelegation(workspaceId, parentChatId, toolCallId, parsed.data);
      onOpenChange(false);
    } catch (err) {
      setFormError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const selectId = `retry-agent-${toolCallId}`;
  const taskId = `retry-task-${toolCallId}`;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="md"
      title="Retry this delegation"
      description="A new attempt runs in its own sub-chat (earlier attempts stay). When it ends, the agent answers again from here with the new result; the other delegations keep theirs."
    >
      <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4" noValidate>
        {formError && <Alert>{formError}</Alert>}
        <Field id={selectId} label="Sub-agent">
          <select
            {...controlProps(selectId, {})}
            value={agent}
            onChange={(e) => setAgent(e.target.value)}
            disabled={!choices}
            className="h-11 rounded-lg border border-neutral-300 bg-white px-3 text-sm dark:border-neutral-700 dark:bg-neutral-900"
          >
            {!choices && <option value={agent}>Loading…</option>}
            {choices &&
              sortedByName(choices).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                  {c.id === subAgentId ? ' (same as before)' : ''}
                </option>
              ))}
          </select>
        </Field>
        <Field id={taskId} label="Task" error={taskError} hint="Edit it to ask for something different, or keep it as it was.">
          <textarea
            {...controlProps(taskId, { error: taskError, hint: true })}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setTaskError(undefined);
            }}
            rows={5}
            className="min-h-28 rounded-lg border border-neutral-300 bg-white px-3 py-2 text-sm dark:border-neutral-700 dark:bg-neutral-900"
          />
        </Field>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy || !choices || choices.length === 0}>
            {busy ? 'Starting…' : 'Run again'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
