// People look for an agent by its name: lists to pick from are in the order a reader expects
// (case and accents ignored, "Agent 2" before "Agent 10"), not in the order they were created.
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

export function sortedByName<T extends { name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => collator.compare(a.name, b.name));
}
