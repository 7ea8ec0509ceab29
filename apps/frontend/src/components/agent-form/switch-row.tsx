'use client';

import { useId, type ReactNode } from 'react';
import { Switch } from '../ui/switch';

/** One labelled switch in a list: the label is the switch's accessible name. */
export function SwitchRow({
  label,
  description,
  detail,
  checked,
  disabled = false,
  onCheckedChange,
}: {
  label: string;
  description?: ReactNode;
  /** A second line under the description (not clamped), e.g. what the choice implies. */
  detail?: ReactNode;
  checked: boolean;
  disabled?: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <li className="flex items-start justify-between gap-4 py-3">
      <div className="min-w-0">
        <label
          htmlFor={id}
          className={
            'block truncate text-sm font-medium ' +
            (disabled ? 'text-neutral-500 dark:text-neutral-500' : 'cursor-pointer text-neutral-900 dark:text-neutral-100')
          }
        >
          {label}
        </label>
        {description && (
          <p id={`${id}-description`} className="mt-0.5 line-clamp-2 text-sm text-neutral-600 dark:text-neutral-400">
            {description}
          </p>
        )}
        {detail}
      </div>
      <Switch
        id={id}
        checked={checked}
        disabled={disabled}
        onCheckedChange={onCheckedChange}
        aria-describedby={description ? `${id}-description` : undefined}
        className="mt-0.5"
      />
    </li>
  );
}

/** Adds or removes one id, keeping the order the ids were chosen in. */
export function toggleId(ids: string[], id: string, on: boolean) {
  return on ? (ids.includes(id) ? ids : [...ids, id]) : ids.filter((x) => x !== id);
}
