import { describe, expect, it } from 'vitest';
import { jsonAnswerText } from './json-answer';
import type { ChatRequest } from './wire';

const req = (response_format?: ChatRequest['response_format']): ChatRequest => ({ model: 'm', messages: [{ role: 'user', content: 'hi' }], response_format });

describe('jsonAnswerText', () => {
  it('answers nothing special without a JSON format', () => {
    expect(jsonAnswerText(req(), 'text', 'hi')).toBeUndefined();
    expect(jsonAnswerText(req({ type: 'text' }), 'text', 'hi')).toBeUndefined();
  });

  it('wraps the text for json_object', () => {
    expect(JSON.parse(jsonAnswerText(req({ type: 'json_object' }), 'the reply', 'hi')!)).toEqual({ reply: 'the reply' });
  });

  it('makes an instance of a schema, following $refs, enums, nullables and arrays', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        count: { type: 'integer', minimum: 3 },
        kind: { type: 'string', enum: ['a', 'b'] },
        maybe: { anyOf: [{ type: 'number' }, { type: 'null' }] },
        tags: { type: 'array', items: { $ref: '#/$defs/Tag' }, minItems: 2 },
        flag: { type: ['boolean', 'null'] },
      },
      $defs: { Tag: { type: 'object', properties: { label: { type: 'string' } } } },
    };
    const out = JSON.parse(jsonAnswerText(req({ type: 'json_schema', json_schema: { name: 'x', schema } }), 'ignored', '  hello   there ')!);
    expect(out).toEqual({ name: 'hello there', count: 3, kind: 'a', maybe: 1, tags: [{ label: 'hello there' }, { label: 'hello there' }], flag: true });
  });
});
