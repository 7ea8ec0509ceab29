/** Apple keyboards name the command key where others use Ctrl. */
export const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** "⌘" on Apple keyboards, "Ctrl" elsewhere. */
export const modKey = () => (isMac() ? '⌘' : 'Ctrl');
