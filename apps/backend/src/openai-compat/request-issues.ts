import type { z } from 'zod';

type Issue = z.core.$ZodIssue;
interface Leaf {
  path: PropertyKey[];
  message: string;
  score: number;
}

/** A branch that failed on its tag (`type`) is a form the caller did not mean: any other branch's problem says more. */
const offTag = (issue: Issue) => {
  const last = issue.path.at(-1);
  return last === 'type' && (issue.code === 'invalid_value' || issue.code === 'invalid_union');
};

/**
 * The problem to report for an issue: for a union (Responses' `input`, a string or items; an
 * item, a message or a typed item), the deepest problem of the branch the value was closest
 * to, with its full path — `input[0].content[0].image_url`, not `input`.
 */
export function innermostIssue(issue: Issue, base: PropertyKey[] = []): Leaf {
  const path = [...base, ...issue.path];
  // A branch of another kind of value (a string where items came) says the least.
  const penalty = (offTag(issue) ? 3 : 0) + (issue.code === 'invalid_type' && issue.path.length === 0 ? 50 : 0);
  const leaf = { path, message: issue.message, score: path.length - penalty };
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return leaf;
  // No branch took this kind of value (neither a string nor a list): the union's own message says what it takes.
  if (issue.errors.every((branch) => branch[0]?.code === 'invalid_type' && branch[0].path.length === 0)) return leaf;
  let best: Leaf | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (!first) continue;
    const candidate = innermostIssue(first, path);
    if (!best || candidate.score > best.score) best = candidate;
  }
  return best ?? leaf;
}
