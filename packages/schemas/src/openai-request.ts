import { z } from 'zod';
import { storableString } from './common';

/**
 * What Chat Completions (`openai-compat.ts`) and the Responses API (`openai-responses.ts`)
 * requests share on `/v1`: common fields, and the rule that every field is passed on,
 * ignored on a list, or refused with a 400 naming it.
 */

/** Fields Chat Completions and Responses share, with the same meaning and limits. */
export const sharedRequestFields = {
  /** The agent's id (as listed by `GET /v1/models`), or its exact name. */
  model: storableString.trim().min(1, 'must name an agent (see GET /v1/models)').max(200),
  stream: z.boolean().nullable().optional(),
  /** Replaces the agent's temperature for this call. */
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  user: z.string().max(256).nullable().optional(),
  safety_identifier: z.string().max(256).nullable().optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
};

/**
 * The rule of both endpoints: a field is one of the schema's, on the ignored list, or
 * refused with a 400 naming it — with the reason when the refusal list has one (a refused
 * field sent as null or false asks for nothing and passes).
 */
export function refuseUnlistedParams(
  req: Record<string, unknown>,
  ctx: z.RefinementCtx,
  lists: { fields: object; ignored: readonly string[]; refused: Record<string, string>; api: string },
) {
  for (const [key, value] of Object.entries(req)) {
    if (key in lists.fields || lists.ignored.includes(key)) continue;
    const refused = lists.refused[key];
    if (refused && (value === null || value === undefined || value === false)) continue;
    ctx.addIssue({ code: 'custom', path: [key], message: refused ?? `is not a ${lists.api} parameter Baton supports (refused rather than ignored)` });
  }
}

/** Each tool name once, and a named `tool_choice` one of them. */
export function checkToolNames(names: string[], choice: string | undefined, ctx: z.RefinementCtx, namePath: (i: number) => (string | number)[]) {
  names.forEach((name, i) => {
    if (names.indexOf(name) !== i) ctx.addIssue({ code: 'custom', path: namePath(i), message: `"${name}" is offered twice` });
  });
  if (choice !== undefined && !names.includes(choice)) {
    ctx.addIssue({ code: 'custom', path: ['tool_choice'], message: `names "${choice}", which is not among the request's tools` });
  }
}
