import type { InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

export const controlClasses =
  'w-full rounded-lg border border-neutral-300 bg-white px-3 text-sm text-neutral-900 shadow-xs ' +
  'placeholder:text-neutral-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 ' +
  'disabled:cursor-not-allowed disabled:bg-neutral-100 disabled:text-neutral-500 ' +
  'aria-[invalid=true]:border-red-500 aria-[invalid=true]:ring-red-500/20 ' +
  'dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100 dark:disabled:bg-neutral-800';

export function Input({ className = '', ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={`${controlClasses} h-10 ${className}`} {...props} />;
}

export function Textarea({ className = '', ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={`${controlClasses} py-2 leading-relaxed ${className}`} {...props} />;
}

export function Select({ className = '', ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={`${controlClasses} h-10 ${className}`} {...props} />;
}
