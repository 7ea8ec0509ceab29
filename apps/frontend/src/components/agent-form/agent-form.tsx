'use client';

import type { Agent, Provider, WorkspaceTool } from '@baton/schemas';
import { ArrowLeft, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ApiError, api } from '@/lib/api-client';
import { apiErrorToErrors } from '@/lib/field-errors';
import { ConfirmDialog } from '../confirm-dialog';
import { Alert } from '../ui/alert';
import { Button, buttonClasses } from '../ui/button';
import { PageHeader } from '../ui/page-header';
import { BasicFields } from './basic-fields';
import { A2ACard } from './a2a-card';
import { DelegationCard } from './delegation-card';
import {
  AGENT_FIELDS,
  buildAgentInput,
  fieldMessage,
  toFormValues,
  type AgentField,
  type AgentFormErrors,
  type AgentFormValues,
  type DelegationFormValues,
} from './form-values';
import { AgentFeedbackCard } from './feedback-card';
import { ModelFields } from './model-fields';
import { ReadOnlyNotice, SharingCard } from './sharing-card';
import { RemoteAgentCard } from './remote-agent-card';
import { SubAgentsCard } from './sub-agents-card';
import { ToolsCard } from './tools-card';
import { withheldByDelegators } from './withheld-tools';
import { useUnsavedChangesGuard } from './unsaved-changes';

interface AgentFormProps {
  workspaceId: string;
  /** The agent being edited; absent for a new agent. */
  agent?: Agent;
  /** Every agent of the workspace (the sub-agent candidates). */
  agents: Agent[];
  providers: Provider[];
  tools: WorkspaceTool[];
}

export type SetAgentField = <K extends Exclude<keyof AgentFormValues, 'delegation'>>(field: K, value: AgentFormValues[K]) => void;
export type SetDelegationField = <K extends keyof DelegationFormValues>(field: K, value: DelegationFormValues[K]) => void;

export function AgentForm({ workspaceId, agent: initialAgent, agents: initialAgents, providers, tools }: AgentFormProps) {
  const router = useRouter();
  const [agent, setAgent] = useState(initialAgent);
  const [agents, setAgents] = useState(initialAgents);
  const [values, setValues] = useState(() => toFormValues(initialAgent));
  // What "unchanged" means: the form as last loaded or saved.
  const [baseline, setBaseline] = useState(() => JSON.stringify(toFormValues(initialAgent)));
  const [done, setDone] = useState(false);
  const dirty = !done && JSON.stringify(values) !== baseline;
  const [errors, setErrors] = useState<AgentFormErrors>({ fields: {} });
  const [saving, setSaving] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  /** Other people's chats that use the agent, when a delete was asked to confirm (409 agent_in_use). */
  const [otherChats, setOtherChats] = useState<number | null>(null);
  // A new agent is the caller's own; a stored one says what the caller may do with it.
  const readOnly = agent ? !agent.canEdit : false;
  const listHref = `/w/${encodeURIComponent(workspaceId)}/agents`;

  const setField: SetAgentField = (field, value) => {
    setValues((v) => ({ ...v, [field]: value }));
    const key = field as string as AgentField;
    if (errors.fields[key]) setErrors((e) => ({ ...e, fields: { ...e.fields, [key]: undefined } }));
  };

  const setDelegation: SetDelegationField = (field, value) => {
    setValues((v) => ({ ...v, delegation: { ...v.delegation, [field]: value } }));
    const key = `delegation.${field}` as const;
    if (errors.fields[key]) setErrors((e) => ({ ...e, fields: { ...e.fields, [key]: undefined } }));
  };

  function showErrors(next: AgentFormErrors) {
    setErrors(next);
    const first = AGENT_FIELDS.find((f) => next.fields[f]);
    if (first) requestAnimationFrame(() => document.getElementById(`agent-${first}`)?.focus());
  }

  /** Saves the form; true when it was saved. A new agent then goes to the list, unless `stay` (the caller navigates). */
  async function save({ stay = false } = {}): Promise<boolean> {
    const { input, errors: clientErrors } = buildAgentInput(values, agent ? 'update' : 'create');
    if (!input) {
      showErrors(clientErrors);
      return false;
    }
    setErrors({ fields: {} });
    setSaving(true);
    try {
      if (agent) {
        const saved = await api.agents.update(workspaceId, agent.id, input);
        setAgent(saved);
        setValues(toFormValues(saved));
        setBaseline(JSON.stringify(toFormValues(saved)));
        toast.success(`Saved “${saved.name}”`);
      } else {
        const created = await api.agents.create(workspaceId, input);
        setDone(true);
        toast.success(`Created agent “${created.name}”`);
        if (!stay) router.push(listHref);
      }
      return true;
    } catch (err) {
      // Refused (sharing withdrawn meanwhile, say): show the agent as it now is, read-only with the reason.
      if (agent && err instanceof ApiError && err.isForbidden) setAgent(await api.agents.get(workspaceId, agent.id).catch(() => agent));
      const mapped = apiErrorToErrors<AgentField>(err, AGENT_FIELDS);
      for (const field of AGENT_FIELDS) {
        const message = mapped.fields[field];
        if (message) mapped.fields[field] = fieldMessage(field, message);
      }
      showErrors(mapped);
      // A sub-agent was deleted meanwhile: refresh the candidates so the card marks it as missing.
      if (mapped.fields.subAgentIds) setAgents(await api.agents.listAll(workspaceId).catch(() => agents));
      return false;
    } finally {
      setSaving(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    await save();
  }

  const { dialog: unsavedChangesDialog } = useUnsavedChangesGuard({ dirty, save: () => save({ stay: true }) });

  async function remove(force = false) {
    if (!agent) return;
    try {
      await api.agents.remove(workspaceId, agent.id, { force });
    } catch (err) {
      // Other people's chats use it: ask once more, saying how many (they stay readable).
      if (!force && err instanceof ApiError && err.code === 'agent_in_use') {
        setOtherChats((err.details as { otherChats?: number } | undefined)?.otherChats ?? 1);
        return;
      }
      throw err;
    }
    setOtherChats(null);
    setDone(true);
    toast.success(`Deleted agent “${agent.name}”`);
    router.push(listHref);
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={agent ? `Edit agent ${agent.name}` : 'New agent'}>
      <Link
        href={listHref}
        className="mb-3 inline-flex items-center gap-1 text-sm text-neutral-600 hover:text-neutral-900 dark:text-neutral-400 dark:hover:text-neutral-100"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden />
        Agents
      </Link>
      <PageHeader
        title={agent ? (readOnly ? agent.name : `Edit ${agent.name}`) : 'New agent'}
        description={
          agent
            ? readOnly
              ? 'Its settings, as everyone’s chats with it use them.'
              : 'Changes apply to new messages in chats with this agent.'
            : 'Describe what the agent does, pick its model and the agents it may delegate to.'
        }
      />
      <div className="flex flex-col gap-4">
        {agent && readOnly && <ReadOnlyNotice agent={agent} />}
        {errors.form && <Alert>{errors.form}</Alert>}
        {/* A disabled fieldset disables every control inside it: the form reads, it does not edit. */}
        <fieldset disabled={readOnly} className="flex min-w-0 flex-col gap-4" aria-label={readOnly ? 'Agent settings (read-only)' : undefined}>
          <fieldset className="flex gap-4 text-sm" aria-label="Kind of agent">
            {(
              [
                ['local', 'Runs here, on a model'],
                ['remote', 'Remote A2A agent'],
              ] as const
            ).map(([kind, label]) => (
              <label key={kind} className="flex items-center gap-2">
                <input type="radio" name="agent-kind" checked={values.kind === kind} onChange={() => setField('kind', kind)} className="accent-indigo-600" />
                {label}
              </label>
            ))}
          </fieldset>
          <BasicFields values={values} errors={errors.fields} setField={setField} />
          {values.kind === 'remote' ? (
            <RemoteAgentCard
              workspaceId={workspaceId}
              agentId={agent?.remote ? agent.id : undefined}
              storedHeaderNames={agent?.remote?.headerNames ?? []}
              values={values}
              error={errors.fields.remote}
              setField={setField}
            />
          ) : (
            <>
              <ModelFields values={values} errors={errors.fields} setField={setField} providers={providers} />
              <ToolsCard
                workspaceId={workspaceId}
                tools={tools}
                selected={values.toolIds}
                error={errors.fields.toolIds}
                onChange={(ids) => setField('toolIds', ids)}
                withheldBy={withheldByDelegators(agent?.id, values.toolIds, agents, tools)}
              />
              <SubAgentsCard
                workspaceId={workspaceId}
                agents={agents}
                selfId={agent?.id}
                selected={values.subAgentIds}
                error={errors.fields.subAgentIds}
                onChange={(ids) => setField('subAgentIds', ids)}
                tools={tools}
                ownToolIds={values.toolIds}
                toolPolicy={values.delegation.toolPolicy}
                selfName={values.name}
                maxDepth={Number(values.delegation.maxDepth)}
              />
              <DelegationCard values={values.delegation} errors={errors.fields} setField={setDelegation} />
            </>
          )}
        </fieldset>
        {/* Outside the fieldset: the card's URL stays copyable when read-only. */}
        <A2ACard
          agentId={agent?.id}
          published={values.a2aPublished}
          savedPublished={agent?.a2aPublished ?? false}
          readOnly={readOnly}
          onChange={(on) => setField('a2aPublished', on)}
        />
        <SharingCard agent={agent} editableBy={values.editableBy} onChange={(v) => setField('editableBy', v)} />
        {agent && <AgentFeedbackCard workspaceId={workspaceId} agentId={agent.id} />}
      </div>

      <div className="sticky bottom-0 -mx-4 mt-6 flex items-center gap-2 border-t border-neutral-200 bg-white px-4 py-3 md:-mx-8 md:px-8 dark:border-neutral-800 dark:bg-neutral-950">
        {agent?.canDelete && (
          <Button variant="ghost" className="text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950/50" onClick={() => setConfirmingDelete(true)}>
            <Trash2 className="h-4 w-4" aria-hidden />
            Delete
          </Button>
        )}
        <div className="ml-auto flex gap-2">
          <Link href={listHref} className={buttonClasses(readOnly ? 'primary' : 'secondary')}>
            {readOnly ? 'Back to agents' : 'Cancel'}
          </Link>
          {!readOnly && (
            <Button type="submit" disabled={saving}>
              {saving ? 'Saving…' : agent ? 'Save changes' : 'Create agent'}
            </Button>
          )}
        </div>
      </div>

      {unsavedChangesDialog}
      {agent && (
        <ConfirmDialog
          open={confirmingDelete}
          onOpenChange={setConfirmingDelete}
          title="Delete agent?"
          description={`“${agent.name}” will be deleted and removed from every agent that uses it as a sub-agent. Existing chats stay.`}
          confirmLabel="Delete agent"
          onConfirm={() => remove()}
        />
      )}
      {agent && (
        <ConfirmDialog
          open={otherChats !== null}
          onOpenChange={(open) => !open && setOtherChats(null)}
          title="Other people use this agent"
          description={`${otherChats === 1 ? '1 chat of another person uses' : `${otherChats} chats of other people use`} “${agent.name}”. Those chats stay readable, but cannot go on with this agent. Delete it anyway?`}
          confirmLabel="Delete anyway"
          onConfirm={() => remove(true)}
        />
      )}
    </form>
  );
}
