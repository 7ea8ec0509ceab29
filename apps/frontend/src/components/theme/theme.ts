/** Where the chosen theme is remembered (localStorage), per browser. */
export const THEME_STORAGE_KEY = 'baton-theme';

export const THEMES = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
] as const;
