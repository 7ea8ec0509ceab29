import { describe, expect, it } from 'vitest';
import { chatCompletionRequestSchema } from './openai-compat';

const base = { model: 'agent_1', messages: [{ role: 'user', content: 'hi' }] };

describe('chatCompletionRequestSchema', () => {
  it('accepts what OpenAI clients send, fields Baton does not use included', () => {
    const parsed = chatCompletionRequestSchema.parse({
      ...base,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'a' }], name: 'ada' },
        { role: 'assistant', content: null, refusal: null },
        { role: 'user', content: 'b' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0,
      max_tokens: null,
      top_p: 1,
      user: 'someone',
      n: 1,
      tools: [],
    });
    expect(parsed.messages).toHaveLength(4);
    expect((parsed as Record<string, unknown>).top_p).toBe(1);
  });

  it.each([
    ['no messages', { ...base, messages: [] }, ['messages']],
    ['a tool message without tool_call_id', { ...base, messages: [{ role: 'tool', content: 'x' }] }, ['messages', 0, 'tool_call_id']],
    ['a function role', { ...base, messages: [{ role: 'function', content: 'x', name: 'f' }] }, ['messages', 0, 'role']],
    [
      'an image part neither https: nor data:',
      { ...base, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://x' } }] }] },
      ['messages', 0, 'content'],
    ],
    [
      'an audio part',
      { ...base, messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }] }] },
      ['messages', 0, 'content'],
    ],
    [
      'a file part with only a file_id',
      { ...base, messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] }] },
      ['messages', 0, 'content'],
    ],
    ['a user message without content', { ...base, messages: [{ role: 'user' }] }, ['messages', 0, 'content']],
    ['assistant tool calls', { ...base, messages: [{ role: 'assistant', tool_calls: [{ id: 'c' }] }] }, ['messages', 0, 'tool_calls']],
    ['a NUL byte', { ...base, messages: [{ role: 'user', content: 'a\u0000b' }] }, ['messages', 0, 'content']],
    ['a tool without a function', { ...base, tools: [{ type: 'function' }] }, ['tools', 0, 'function']],
    [
      'a tool whose arguments are no object',
      { ...base, tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'array' } } }] },
      ['tools', 0, 'function', 'parameters', 'type'],
    ],
    ['tool_choice naming no offered tool', { ...base, tool_choice: { type: 'function', function: { name: 'f' } } }, ['tool_choice']],
    ['two choices', { ...base, n: 2 }, ['n']],
    ['a temperature over 2', { ...base, temperature: 2.5 }, ['temperature']],
    ['no model', { messages: base.messages }, ['model']],
  ])('refuses %s', (_, body, path) => {
    const result = chatCompletionRequestSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path.slice(0, path.length)).toEqual(path);
  });
});
