'use client';

import type { ButtonHTMLAttributes } from 'react';

interface SwitchProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onChange' | 'role'> {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}

/** An on/off control (`role="switch"`); label it with a `<label htmlFor>` or `aria-label`. */
export function Switch({ checked, onCheckedChange, className = '', disabled, ...props }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      disabled={disabled}
      onClick={() => onCheckedChange(!checked)}
      className={
        'relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full transition-colors ' +
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-50 ' +
        (checked ? 'bg-indigo-600' : 'bg-neutral-300 dark:bg-neutral-700') +
        ` ${className}`
      }
      {...props}
    >
      <span
        aria-hidden
        className={'inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ' + (checked ? 'translate-x-5.5' : 'translate-x-0.5')}
      />
    </button>
  );
}
