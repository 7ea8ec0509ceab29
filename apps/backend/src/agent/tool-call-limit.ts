import type { LanguageModelMiddleware, Tool, ToolSet } from 'ai';
import { SafeMessageError } from '../errors';
import { partStagesMiddleware, type PartStageFactory } from './part-stages';

/** BATON_MAX_TOOL_CALLS_PER_STEP: how many tool calls of one model response run. */
export const DEFAULT_MAX_TOOL_CALLS_PER_STEP = 64;
/** At least a whole delegation batch (10 `newTask` calls), which has its own limit. */
export const MIN_MAX_TOOL_CALLS_PER_STEP = 10;
/** A response with more calls than this many times the limit is refused as a whole. */
export const TOOL_CALL_CEILING_FACTOR = 16;

/** The result a call past the limit gets: the model reads it in its next step. */
export function toolCallRefusedText(max: number): string {
  return `Not run: at most ${max} tool calls run per step. Make fewer calls at once.`;
}

/** The model's response had so many tool calls that it is not a usable answer (a runaway or hostile provider). */
export class ToolCallFloodError extends SafeMessageError {
  constructor(ceiling: number) {
    super(
      `The model sent more than ${ceiling.toLocaleString('en-US')} tool calls in one response; Baton stopped the answer there. Try again, or ask for fewer steps at once.`,
    );
  }
}

export interface ToolCallLimit {
  /** Counts each model response's tool calls; marks those past the limit, and fails a response past the ceiling. */
  stage: PartStageFactory;
  /** The same as a middleware of its own. */
  middleware: Pick<LanguageModelMiddleware, 'wrapStream'>;
  /** The tools, each answering a marked call with the refusal instead of running (or asking a person first). */
  wrapTools(tools: ToolSet): ToolSet;
}

/**
 * The cap on tool calls per step. The first `max` calls of a response run as usual; later
 * ones keep their place in the answer (the model made them) but get an error result it can
 * read, without running — a sub-agent, an MCP call or a built-in tool each. Their input is
 * not streamed part by part (one chunk per call instead of many). A response with more than
 * `max × 16` calls ends with an error: every call costs the AI SDK's reducer a scan of its
 * step, here and in the browser, so an unbounded step is unbounded work.
 *
 * `newTask` without `execute` (the browser's delegation) is capped by its own batch limit
 * (10, `@baton/delegation`), below this one.
 */
export function toolCallLimit(max: number): ToolCallLimit {
  const refused = new Set<string>();
  const ceiling = max * TOOL_CALL_CEILING_FACTOR;
  const stage: PartStageFactory = () => {
    // One response: one step.
    const seen = new Set<string>();
    const admit = (id: string): boolean => {
      if (!seen.has(id)) {
        seen.add(id);
        if (seen.size > max) refused.add(id);
      }
      return !refused.has(id);
    };
    return (part) => {
      if (part.type === 'tool-input-start' || part.type === 'tool-input-delta' || part.type === 'tool-input-end') return admit(part.id) ? part : null;
      if (part.type === 'tool-call') {
        admit(part.toolCallId);
        if (seen.size > ceiling) throw new ToolCallFloodError(ceiling);
      }
      return part;
    };
  };
  // The text itself, not an Error: no stack to capture for each of up to 16 × `max` calls, and the
  // model reads the sentence as it is (an Error would read "Error: Not run…").
  const refusal = () => Promise.reject(toolCallRefusedText(max));
  const wrapTool = (tool: Tool): Tool => {
    const { execute, needsApproval } = tool;
    // A tool without `execute` runs in the browser (`newTask`), which applies its batch limit.
    if (!execute) return tool;
    return {
      ...tool,
      execute: (input, options) => (refused.has(options.toolCallId) ? refusal() : execute(input, options)),
      // A refused call is answered at once: nobody is asked to approve a call that will not run.
      ...(needsApproval === undefined
        ? {}
        : {
            needsApproval: (input, options) =>
              refused.has(options.toolCallId) ? false : typeof needsApproval === 'function' ? needsApproval(input, options) : needsApproval,
          }),
    } as Tool;
  };
  return {
    stage,
    middleware: partStagesMiddleware([stage]),
    wrapTools: (tools) => Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, wrapTool(tool)])),
  };
}
