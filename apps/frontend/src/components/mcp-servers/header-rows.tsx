'use client';

import { KeyRound, Pencil, Plus, X } from 'lucide-react';
import { Button } from '../ui/button';
import { Input } from '../ui/input';
import { newHeaderRow, type HeaderRow } from './mcp-server-form-values';

/**
 * Name/value rows for the headers sent to the server (e.g. `Authorization`). A stored
 * header shows its name and "•••• stored": its value is write-only, so it can only be
 * replaced or removed.
 */
export function HeaderRows({ rows, errors = {}, onChange }: { rows: HeaderRow[]; errors?: Record<string, string>; onChange: (rows: HeaderRow[]) => void }) {
  const update = (key: string, patch: Partial<HeaderRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const remove = (key: string) => onChange(rows.filter((r) => r.key !== key));

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1.5 text-sm font-medium text-neutral-800 dark:text-neutral-200">Headers</legend>
      <p className="-mt-1 text-xs text-neutral-500 dark:text-neutral-400">
        Sent with every request, e.g. <code>Authorization: Bearer &lt;token&gt;</code>. Values are stored encrypted and never shown again.
      </p>
      {rows.map((row, i) => (
        <div key={row.key} className="flex flex-col gap-1">
          <div className="flex items-center gap-2">
            <Input
              aria-label={`Header ${i + 1} name`}
              value={row.name}
              onChange={(ev) => update(row.key, { name: ev.target.value })}
              readOnly={row.stored}
              placeholder="Authorization"
              autoComplete="off"
              spellCheck={false}
              className="min-w-0 flex-1 font-mono text-[13px]"
            />
            {row.stored ? (
              <div className="flex shrink-0 items-center gap-1">
                <span className="inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
                  <KeyRound className="h-3 w-3 shrink-0" aria-hidden />
                  •••• stored
                </span>
                <Button
                  variant="ghost"
                  size="icon"
                  onClick={() => update(row.key, { stored: false })}
                  aria-label={`Replace the value of ${row.name}`}
                  title="Replace the value"
                >
                  <Pencil className="h-4 w-4" aria-hidden />
                </Button>
              </div>
            ) : (
              <Input
                aria-label={`Header ${i + 1} value`}
                type="password"
                value={row.value}
                onChange={(ev) => update(row.key, { value: ev.target.value })}
                placeholder="Value"
                autoComplete="new-password"
                spellCheck={false}
                aria-invalid={Boolean(errors[row.key])}
                className="min-w-0 flex-1 font-mono text-[13px]"
              />
            )}
            <Button variant="ghost" size="icon" aria-label={`Remove header ${row.name || i + 1}`} title="Remove header" onClick={() => remove(row.key)}>
              <X className="h-4 w-4" aria-hidden />
            </Button>
          </div>
          {errors[row.key] && <p className="text-sm text-red-600 dark:text-red-400">{errors[row.key]}</p>}
        </div>
      ))}
      <div>
        <Button variant="secondary" size="sm" onClick={() => onChange([...rows, newHeaderRow()])}>
          <Plus className="h-4 w-4" aria-hidden />
          Add header
        </Button>
      </div>
    </fieldset>
  );
}
