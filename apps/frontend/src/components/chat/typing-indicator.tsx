/** Three pulsing dots while the agent has not said anything yet. */
export function TypingIndicator() {
  return (
    <li className="flex justify-start">
      <div role="status" aria-label="The agent is thinking" className="flex items-center gap-1 px-1 py-2">
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            className="h-2 w-2 animate-pulse rounded-full bg-neutral-400 dark:bg-neutral-500"
            style={{ animationDelay: `${delay}ms` }}
            aria-hidden
          />
        ))}
      </div>
    </li>
  );
}
