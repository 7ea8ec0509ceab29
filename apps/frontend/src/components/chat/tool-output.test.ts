import type { WorkspaceTool } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { mcpToolOrigin, toolCallState, toolOutputView } from './tool-output';

describe('toolOutputView', () => {
  it('shows plain outputs as text or pretty JSON', () => {
    expect(toolOutputView('42')).toEqual({ text: '42', isError: false });
    expect(toolOutputView({ result: 4 })).toEqual({ text: '{\n  "result": 4\n}', isError: false });
  });

  it('shows the text of an MCP result and names other content kinds', () => {
    const out = {
      content: [
        { type: 'text', text: 'Fact about otters: …' },
        { type: 'image', data: 'xxx', mimeType: 'image/png' },
      ],
    };
    expect(toolOutputView(out)).toEqual({ text: 'Fact about otters: …\n\n[image content]', isError: false });
  });

  it('treats an MCP result with isError as a failure', () => {
    expect(toolOutputView({ content: [{ type: 'text', text: 'no such topic' }], isError: true })).toEqual({ text: 'no such topic', isError: true });
  });
});

const tool = (name: string, serverName: string | null, source: 'builtIn' | 'mcp' = 'mcp'): WorkspaceTool => ({
  id: source === 'mcp' ? `mcp:${serverName}:${name}` : name,
  name,
  description: '',
  source,
  serverId: source === 'mcp' ? serverName : null,
  serverName,
  available: true,
});

describe('mcpToolOrigin', () => {
  const catalog = [tool('calculator', null, 'builtIn'), tool('lookup_fact', 'Test Facts'), tool('add', 'Maths'), tool('add', 'More Maths')];

  it('finds the server of a uniquely named MCP tool', () => {
    expect(mcpToolOrigin('lookup_fact', catalog)).toEqual({ toolName: 'lookup_fact', serverName: 'Test Facts' });
  });

  it('finds the server of a prefixed name used when names clash', () => {
    expect(mcpToolOrigin('more_maths_add', catalog)).toEqual({ toolName: 'add', serverName: 'More Maths' });
    const dotted = [tool('search.docs', 'Company Wiki (prod)')];
    expect(mcpToolOrigin('company_wiki_prod_search_docs', dotted)).toEqual({ toolName: 'search.docs', serverName: 'Company Wiki (prod)' });
  });

  it('picks the working server when two list the same name, and none when both work', () => {
    const twice = [tool('lookup_fact', 'Old facts'), tool('lookup_fact', 'Facts')];
    expect(mcpToolOrigin('lookup_fact', twice)).toBeUndefined();
    twice[0] = { ...twice[0]!, available: false };
    expect(mcpToolOrigin('lookup_fact', twice)).toEqual({ toolName: 'lookup_fact', serverName: 'Facts' });
  });

  it('gives built-in and unknown tools no origin', () => {
    expect(mcpToolOrigin('calculator', catalog)).toBeUndefined();
    expect(mcpToolOrigin('nothing', catalog)).toBeUndefined();
  });
});

describe('an MCP result with stored files', () => {
  it('shows its text and hands its files to the block', () => {
    const png = {
      id: 'f1',
      name: 'snap.png',
      mediaType: 'image/png' as const,
      size: 70,
      createdAt: '2026-12-01T00:00:00.000Z',
      url: '/api/workspaces/w/files/f1',
    };
    expect(toolOutputView({ text: 'Snapshot.\n[Image snap.png …]', files: [png] })).toEqual({
      text: 'Snapshot.\n[Image snap.png …]',
      isError: false,
      files: [png],
    });
  });
});

describe('toolCallState', () => {
  it('reads a call without output in an ended answer as waiting for the API client, not running', () => {
    expect(toolCallState('input-available', false, true)).toEqual({ label: 'running', tone: 'running' });
    expect(toolCallState('input-available', false, false)).toEqual({ label: 'waiting for the API client', tone: 'waiting' });
    expect(toolCallState('output-available', false, false)).toEqual({ label: 'done', tone: 'done' });
    expect(toolCallState('output-available', true, false).tone).toBe('failed');
    expect(toolCallState('output-error', false, false).tone).toBe('failed');
  });
});
