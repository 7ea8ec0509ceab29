// Structured output, as far as a scripted model can: a request that asks for JSON
// (`response_format` json_object or json_schema) gets its text answer as JSON instead — for
// a schema, an instance of it made from the schema alone. README.md, "The script", rule 8.
import type { ChatRequest } from './wire';

type JsonSchema = Record<string, unknown>;
const MAX_DEPTH = 8;

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the request asks its answer to be: JSON, JSON of a schema, or nothing in particular. */
function askedFormat(request: ChatRequest): { schema?: JsonSchema } | undefined {
  const format = request.response_format;
  if (format?.type === 'json_object') return {};
  if (format?.type === 'json_schema') return { schema: isObject(format.json_schema?.schema) ? format.json_schema.schema : {} };
  return undefined;
}

/** The schema a `$ref` points at (`#/$defs/Name`, `#/definitions/Name`, any JSON pointer into the root). */
function resolveRef(root: JsonSchema, ref: string): JsonSchema {
  let at: unknown = root;
  for (const key of ref.replace(/^#\/?/, '').split('/').filter(Boolean)) at = isObject(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isObject(at) ? at : {};
}

/** A value the schema accepts: the first enum value or option, every property, one item, strings from `text`. */
function instanceOf(schema: JsonSchema, root: JsonSchema, text: string, depth: number): unknown {
  if (depth > MAX_DEPTH) return null;
  if (typeof schema.$ref === 'string') return instanceOf(resolveRef(root, schema.$ref), root, text, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const options = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (options?.length) return instanceOf(isObject(options[0]) ? options[0] : {}, root, text, depth + 1);
  if (Array.isArray(schema.allOf) && isObject(schema.allOf[0])) return instanceOf({ ...schema.allOf[0], ...schema, allOf: undefined }, root, text, depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'string':
      return text;
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const count = typeof schema.minItems === 'number' ? Math.max(1, schema.minItems) : 1;
      return Array.from({ length: count }, () => instanceOf(isObject(schema.items) ? schema.items : {}, root, text, depth + 1));
    }
    default: {
      const properties = isObject(schema.properties) ? schema.properties : {};
      return Object.fromEntries(Object.entries(properties).map(([key, p]) => [key, instanceOf(isObject(p) ? p : {}, root, text, depth + 1)]));
    }
  }
}

/**
 * The answer's text as JSON when the request asks for it: an instance of the schema (its
 * strings say what the user wrote), or for `json_object` `{ "reply": <the script's text> }`.
 * Undefined when no JSON was asked for.
 */
export function jsonAnswerText(request: ChatRequest, scriptText: string, userText: string): string | undefined {
  const format = askedFormat(request);
  if (!format) return undefined;
  if (!format.schema) return JSON.stringify({ reply: scriptText });
  const said = userText.trim().replace(/\s+/g, ' ');
  const text = said.length > 80 ? `${said.slice(0, 80)}…` : said || 'demo';
  return JSON.stringify(instanceOf(format.schema, format.schema, text, 0));
}
