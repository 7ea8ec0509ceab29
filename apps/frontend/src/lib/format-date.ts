const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dayAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "24 Nov 2026", in the reader's locale. */
export const formatDay = (iso: string) => day.format(new Date(iso));

/** "24 Nov 2026, 14:05", in the reader's locale. */
export const formatDayAndTime = (iso: string) => dayAndTime.format(new Date(iso));

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['minute', 60],
  ['hour', 60],
  ['day', 24],
  ['month', 30],
  ['year', 12],
];

/** "just now", "5 minutes ago", "yesterday", "3 months ago": how long ago, in the reader's locale. */
export function formatTimeAgo(iso: string, now = Date.now(), locale?: string): string {
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  let amount = (now - new Date(iso).getTime()) / 60_000;
  // The rest of the page is English too; Intl's "now" reads like a clock.
  if (amount < 1) return 'just now';
  let unit: Intl.RelativeTimeFormatUnit = 'minute';
  for (const [next, size] of STEPS.slice(1)) {
    if (amount < size) break;
    amount /= size;
    unit = next;
  }
  return relative.format(-Math.floor(amount), unit);
}
