'use client';

import type { BatonUIMessage } from '@baton/schemas';
import { isToolUIPart, lastAssistantMessageIsCompleteWithToolCalls } from 'ai';
import { followServerRun, type FollowTarget } from './follow-server-run';
import { readChat } from './queries';
import { toUIMessages } from './stored-messages';

/**
 * The session's `sendAutomaticallyWhen`: once every pending call of the parent's answer has
 * an output, the answer continues. Another tab (or this one before a reload) may already
 * have sent that continuation; then this tab follows the run that answers it instead of
 * sending it again, which the server would refuse (409) once that answer is over.
 */
export async function sendContinuationHere(target: FollowTarget, messages: BatonUIMessage[]): Promise<boolean> {
  if (!lastAssistantMessageIsCompleteWithToolCalls({ messages })) return false;
  const last = messages.at(-1)!;
  const stored = await readChat(target.workspaceId, target.chatId).catch(() => undefined);
  // Cannot tell: send. The server joins an identical continuation that is already running.
  if (!stored) return true;
  const storedLast = stored.messages.at(-1);
  const stillWaiting =
    !stored.activeRun &&
    storedLast?.id === last.id &&
    toUIMessages([storedLast])[0]!.parts.some((p) => isToolUIPart(p) && (p.state === 'input-available' || p.state === 'approval-responded'));
  if (stillWaiting) return true;
  // After the SDK has settled this decision: following resumes the session's stream.
  setTimeout(() => void followServerRun(target, stored).catch(() => {}), 0);
  return false;
}
