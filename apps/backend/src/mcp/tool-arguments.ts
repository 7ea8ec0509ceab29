import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JSONSchema7 } from 'ai';

/*
 * A tool call's arguments, checked against the input schema the MCP server published before
 * the call leaves Baton. A model that got them wrong reads what was wrong as the call's error
 * (the AI SDK turns a failed check into an error result of the call) and can try again;
 * the server sees only calls its schema accepts. Ajv, as the MCP SDK itself uses: lenient
 * about keywords it does not know (servers publish draft-07 and 2020-12 schemas alike), and
 * a schema it cannot compile is left to the server, as before.
 */

// ajv-formats is CommonJS: its default export arrives as the module object under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;

const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
addFormats(ajv);

/** Compiled checks by schema text: the same tool is offered to turn after turn. Bounded, oldest first out. */
const compiled = new Map<string, ValidateFunction | null>();
const MAX_COMPILED = 500;
/** What the model reads of the errors: enough to correct the call, never the whole schema. */
const MAX_ERROR_CHARS = 1_000;

function compile(schema: JSONSchema7): ValidateFunction | null {
  const key = JSON.stringify(schema);
  const known = compiled.get(key);
  if (known !== undefined) return known;
  let check: ValidateFunction | null;
  try {
    check = ajv.compile(schema);
  } catch {
    check = null;
  }
  if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, check);
  return check;
}

export type ArgumentsCheck = (value: unknown) => { success: true; value: unknown } | { success: false; error: Error };

/** The check for one tool's schema, for the AI SDK's `jsonSchema(schema, { validate })`. */
export function argumentsCheck(toolName: string, schema: JSONSchema7): ArgumentsCheck {
  const check = compile(schema);
  return (value) => {
    if (!check || check(value)) return { success: true, value };
    const errors = ajv.errorsText(check.errors, { dataVar: 'arguments', separator: '; ' });
    return {
      success: false,
      error: new Error(`The arguments do not match the input schema of "${toolName}": ${errors.slice(0, MAX_ERROR_CHARS)}. Correct them and call it again.`),
    };
  };
}
