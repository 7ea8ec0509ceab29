'use client';

import type { McpServer, McpServerCreate, McpTransport } from '@baton/schemas';
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { apiErrorToErrors } from '@/lib/field-errors';
import { api } from '@/lib/api-client';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { controlProps, Field } from '../ui/field';
import { Input, Select } from '../ui/input';
import { Switch } from '../ui/switch';
import { describeMcpFailure } from './mcp-failure';
import { HeaderRows } from './header-rows';
import {
  buildMcpServerInput,
  MCP_SERVER_FIELDS,
  mcpFieldMessage,
  storedHeadersWouldMove,
  toMcpServerFormValues,
  type McpServerFormErrors,
  type McpServerFormValues,
} from './mcp-server-form-values';

interface McpServerFormDialogProps {
  workspaceId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The server to edit; absent to add one. */
  server?: McpServer;
  onSaved: (server: McpServer) => void;
}

const transports: { value: McpTransport; label: string }[] = [
  { value: 'auto', label: 'Auto (Streamable HTTP, then SSE)' },
  { value: 'http', label: 'Streamable HTTP' },
  { value: 'sse', label: 'SSE (older servers)' },
];

export function McpServerFormDialog({ workspaceId, open, onOpenChange, server, onSaved }: McpServerFormDialogProps) {
  const [values, setValues] = useState<McpServerFormValues>(() => toMcpServerFormValues(server));
  const [errors, setErrors] = useState<McpServerFormErrors>({ fields: {} });
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValues(toMcpServerFormValues(server));
    setErrors({ fields: {} });
  }, [open, server]);

  function set<K extends keyof McpServerFormValues>(field: K, value: McpServerFormValues[K]) {
    setValues((v) => ({ ...v, [field]: value }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const { input, errors: clientErrors } = buildMcpServerInput(values, server);
    setErrors(clientErrors);
    if (!input) return;
    if (server && Object.keys(input).length === 0) return onOpenChange(false);
    setSaving(true);
    try {
      // Saving lists the server's tools (a failure is stored on the server, not an error here).
      const saved = server ? await api.mcpServers.update(workspaceId, server.id, input) : await api.mcpServers.create(workspaceId, input as McpServerCreate);
      if (saved.toolsError) toast.warning(`Saved “${saved.name}”, but ${describeMcpFailure(saved.toolsError).title.toLowerCase()}: see the server’s card.`);
      else toast.success(`${server ? 'Saved' : 'Added'} “${saved.name}”: ${saved.tools.length === 1 ? '1 tool' : `${saved.tools.length} tools`}`);
      onSaved(saved);
      onOpenChange(false);
    } catch (err) {
      const mapped = apiErrorToErrors(err, MCP_SERVER_FIELDS);
      for (const field of MCP_SERVER_FIELDS) {
        const message = mapped.fields[field];
        if (message) mapped.fields[field] = mcpFieldMessage(field, message);
      }
      setErrors(mapped);
    } finally {
      setSaving(false);
    }
  }

  const e = errors.fields;
  const urlHint = storedHeadersWouldMove(values, server)
    ? 'Another host than before: its stored header values are not sent there. Enter them again below, or remove them.'
    : 'The server’s MCP endpoint, often ending in /mcp (or /sse for SSE servers).';
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="md"
      title={server ? `Edit ${server.name}` : 'Add tool server'}
      description="A server that speaks the Model Context Protocol over HTTP. Baton lists its tools when you save."
    >
      <form onSubmit={(ev) => void submit(ev)} noValidate className="flex flex-col gap-4">
        {errors.form && <Alert>{errors.form}</Alert>}
        <Field id="mcp-name" label="Name" error={e.name}>
          <Input
            {...controlProps('mcp-name', { error: e.name })}
            value={values.name}
            onChange={(ev) => set('name', ev.target.value)}
            placeholder="e.g. Company wiki"
            autoComplete="off"
            autoFocus
          />
        </Field>
        <Field id="mcp-url" label="URL" hint={urlHint} error={e.url}>
          <Input
            {...controlProps('mcp-url', { hint: urlHint, error: e.url })}
            type="url"
            value={values.url}
            onChange={(ev) => set('url', ev.target.value)}
            placeholder="https://mcp.example.com/mcp"
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field id="mcp-transport" label="Transport" error={e.transport}>
          <Select
            {...controlProps('mcp-transport', { error: e.transport })}
            value={values.transport}
            onChange={(ev) => set('transport', ev.target.value as McpTransport)}
          >
            {transports.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </Select>
        </Field>
        <HeaderRows rows={values.headers} errors={errors.headerRows} onChange={(rows) => set('headers', rows)} />
        {e.headers && <p className="-mt-2 text-sm text-red-600 dark:text-red-400">{e.headers}</p>}
        <div className="flex items-center justify-between gap-4 text-sm text-neutral-800 dark:text-neutral-200">
          <div>
            <label htmlFor="mcp-enabled" className="font-medium">
              Enabled
            </label>
            <p id="mcp-enabled-hint" className="text-xs text-neutral-500">
              Disabled servers keep their settings; agents skip their tools.
            </p>
          </div>
          <Switch id="mcp-enabled" checked={values.enabled} onCheckedChange={(on) => set('enabled', on)} aria-describedby="mcp-enabled-hint" />
        </div>
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving and listing tools…' : server ? 'Save changes' : 'Add tool server'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
