// The script as a pure function: rule order and the edge cases of parsing.
import { describe, expect, it } from 'vitest';
import { decideTurn, parseDelegateLines, parseSubAgentListing } from './script';
import type { ChatMessage, ChatRequest, ToolDefinition } from './wire';

const fn = (name: string, description = ''): ToolDefinition => ({ type: 'function', function: { name, description } });
const req = (messages: ChatMessage[], tools?: ToolDefinition[]): ChatRequest => ({ model: 'baton-demo', messages, ...(tools ? { tools } : {}) });
const user = (content: string): ChatMessage => ({ role: 'user', content });

describe('parsing', () => {
  it('reads the sub-agent listing lines and nothing else', () => {
    const text = 'Sub-agents:\n- Researcher (id: a1): finds\n  - Deep Diver (id: a-2):\n- not a listing\n* Star (id: s1): no';
    expect(parseSubAgentListing(text)).toEqual([
      { name: 'Researcher', id: 'a1' },
      { name: 'Deep Diver', id: 'a-2' },
    ]);
  });

  it('reads /delegate lines with spaced names and colons in the task', () => {
    expect(parseDelegateLines('intro\n  /Delegate  Deep   Diver :  go: now  \n/delegate nobody:\n/delegate x')).toEqual([
      { name: 'Deep Diver', task: 'go: now' },
    ]);
  });
});

describe('rule order', () => {
  it('tool results win over everything', () => {
    const turn = decideTurn(
      req(
        [
          user('/delegate A: x'),
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'plain text' },
        ],
        [fn('taskResult'), fn('newTask')],
      ),
    );
    expect(turn).toEqual({ rule: 'tool-results', text: 'Here is what came back:\n\n- **lookup**: plain text', toolCalls: [] });
  });

  it('only quotes the latest batch, and falls back to the id for unlisted sub-agents', () => {
    const call = (id: string, subAgentId: string) => ({
      id,
      type: 'function' as const,
      function: { name: 'newTask', arguments: JSON.stringify({ subAgentId, task: 't' }) },
    });
    const turn = decideTurn(
      req(
        [
          user('go'),
          { role: 'assistant', tool_calls: [call('old', 'a1')] },
          { role: 'tool', tool_call_id: 'old', content: '{"result":"old","status":"success"}' },
          { role: 'assistant', content: 'again', tool_calls: [call('new', 'zz9')] },
          { role: 'tool', tool_call_id: 'new', content: '{"status":"error","result":{"why":"no"}}' },
        ],
        [fn('newTask', '- Alpha (id: a1): x')],
      ),
    );
    expect(turn.text).toBe('Here is what came back:\n\n- **zz9** (error): {"why":"no"}');
  });

  it('a sub-agent answers with taskResult even when its task has /delegate lines', () => {
    const turn = decideTurn(req([user('/delegate A: x')], [fn('taskResult'), fn('newTask')]));
    expect(turn.rule).toBe('sub-agent');
    expect(turn.toolCalls[0]?.name).toBe('taskResult');
  });

  it('"fail" must be a whole word', () => {
    const status = (task: string) => decideTurn(req([user(task)], [fn('taskResult')])).toolCalls[0]?.arguments.status;
    expect(status('this failed before')).toBe('success');
    expect(status('failure is an option')).toBe('success');
    expect(status('make it fail.')).toBe('error');
    expect(status('Fail')).toBe('error');
  });

  it('finds sub-agents listed in the system message too', () => {
    const turn = decideTurn(req([{ role: 'system', content: '- Writer (id: w7): writes' }, user('/delegate writer: a poem')], [fn('newTask')]));
    expect(turn.toolCalls).toEqual([{ name: 'newTask', arguments: { subAgentId: 'w7', task: 'a poem' } }]);
  });

  it('names each unavailable sub-agent once', () => {
    const turn = decideTurn(req([user('/delegate A: 1\n/delegate B: 2\n/delegate A: 3')]));
    expect(turn.text).toBe('No sub-agent named **A** is available to this agent.\nNo sub-agent named **B** is available to this agent.');
  });

  it('quotes a long or empty message sensibly', () => {
    expect(decideTurn(req([user('')])).text).toContain('> (an empty message)');
    const long = decideTurn(req([user('word '.repeat(300))])).text;
    expect(long).toContain('…');
    expect(long.length).toBeLessThan(1200);
  });
});

describe('failure tokens', () => {
  it('mark the turn, except on /delegate lines', () => {
    expect(decideTurn(req([user('hi [demo:error]')])).failure).toBe('error');
    expect(decideTurn(req([user('hi [demo:drop]')])).failure).toBe('drop');
    expect(decideTurn(req([user('/delegate A: x [demo:drop]')], [fn('newTask')])).failure).toBeUndefined();
    expect(decideTurn(req([user('hi [demo:error]'), { role: 'assistant', content: 'x' }, user('fine')])).failure).toBeUndefined();
  });
});
