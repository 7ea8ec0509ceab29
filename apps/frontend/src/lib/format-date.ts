const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dayAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "24 Nov 2026", in the reader's locale. */
export const formatDay = (iso: string) => day.format(new Date(iso));

/** "24 Nov 2026, 14:05", in the reader's locale. */
export const formatDayAndTime = (iso: string) => dayAndTime.format(new Date(iso));
