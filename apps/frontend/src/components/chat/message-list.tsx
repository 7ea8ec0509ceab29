import type { Message } from '@baton/schemas';
import { Wrench } from 'lucide-react';
import { displayParts } from './message-parts';

/** A read-only transcript: user messages on the right, the agent's answers on the left. */
export function MessageList({ messages }: { messages: Message[] }) {
  return (
    <ol aria-label="Messages" className="flex flex-col gap-5">
      {messages
        .filter((m) => m.role !== 'system')
        .map((message) => (
          <MessageItem key={message.id} message={message} />
        ))}
    </ol>
  );
}

function MessageItem({ message }: { message: Message }) {
  const parts = displayParts(message);
  const isUser = message.role === 'user';
  return (
    <li className={`flex ${isUser ? 'justify-end' : 'justify-start'}`} aria-label={isUser ? 'You' : 'Agent'}>
      <div
        className={
          'flex min-w-0 flex-col gap-3 text-sm leading-relaxed ' +
          (isUser ? 'max-w-[85%] rounded-2xl rounded-br-md bg-neutral-100 px-4 py-2.5 dark:bg-neutral-800' : 'max-w-full')
        }
      >
        {parts.map((part, i) =>
          part.kind === 'text' ? (
            <p key={i} className="whitespace-pre-wrap break-words">
              {part.text}
            </p>
          ) : (
            <span
              key={i}
              className="inline-flex w-fit items-center gap-1 rounded-md border border-neutral-200 px-2 py-0.5 text-xs text-neutral-600 dark:border-neutral-700 dark:text-neutral-400"
            >
              <Wrench className="h-3 w-3" aria-hidden />
              {part.name}
            </span>
          ),
        )}
      </div>
    </li>
  );
}
