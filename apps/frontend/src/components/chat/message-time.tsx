'use client';

import { formatDayAndTime, formatTimeAgo } from '@/lib/format-date';
import { messageTime } from '@/lib/message-times';
import { useMinute } from '@/lib/use-minute';

/** When a message was written: "5 minutes ago", the exact time on hover (and for screen readers). */
export function MessageTime({ messageId }: { messageId: string }) {
  const now = useMinute();
  const at = messageTime(messageId);
  const exact = formatDayAndTime(at);
  return (
    <time dateTime={at} title={exact} className="whitespace-nowrap px-1 text-xs text-neutral-500" suppressHydrationWarning>
      {formatTimeAgo(at, Math.max(now, Date.now()))}
    </time>
  );
}
