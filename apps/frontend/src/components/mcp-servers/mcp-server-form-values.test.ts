import type { McpServer } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { describeMcpFailure } from './mcp-failure';
import {
  buildMcpServerInput,
  newHeaderRow,
  REENTER_FOR_NEW_HOST_MESSAGE,
  REENTER_MESSAGE,
  storedHeadersWouldMove,
  toMcpServerFormValues,
} from './mcp-server-form-values';

const server: McpServer = {
  id: 's1',
  workspaceId: 'w',
  name: 'Facts',
  scope: 'workspace',
  url: 'https://mcp.example.com/mcp',
  transport: 'auto',
  headerNames: ['Authorization'],
  enabled: true,
  tools: [],
  toolsError: null,
  stderr: null,
  toolsCheckedAt: null,
  oauth: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('buildMcpServerInput', () => {
  it('creates with the typed headers, blank rows ignored', () => {
    const values = toMcpServerFormValues();
    values.name = 'Facts';
    values.url = ' https://mcp.example.com/mcp ';
    values.headers = [{ ...newHeaderRow('Authorization'), value: 'Bearer t' }, newHeaderRow()];
    const { input, errors } = buildMcpServerInput(values);
    expect(errors.fields).toEqual({});
    expect(input).toEqual({ name: 'Facts', url: 'https://mcp.example.com/mcp', transport: 'auto', enabled: true, headers: { Authorization: 'Bearer t' } });
  });

  it('reports schema errors by field', () => {
    const values = toMcpServerFormValues();
    values.name = 'x';
    values.url = 'ftp://nope';
    const { input, errors } = buildMcpServerInput(values);
    expect(input).toBeUndefined();
    expect(errors.fields.url).toMatch(/^URL must be a valid http\(s\) URL/);
  });

  it('sends only what changed on edit, and never the headers when their rows are untouched', () => {
    const values = toMcpServerFormValues(server);
    expect(values.headers.map((h) => [h.name, h.stored, h.value])).toEqual([['Authorization', true, '']]);
    values.name = 'Facts v2';
    expect(buildMcpServerInput(values, server).input).toEqual({ name: 'Facts v2' });
    expect(buildMcpServerInput(toMcpServerFormValues(server), server).input).toEqual({});
  });

  it('asks to type stored values again when the headers change, since a given map replaces them all', () => {
    const values = toMcpServerFormValues(server);
    values.headers.push({ ...newHeaderRow('X-Team'), value: 'a' });
    const { input, errors } = buildMcpServerInput(values, server);
    expect(input).toBeUndefined();
    expect(errors.headerRows?.[values.headers[0]!.key]).toBe(REENTER_MESSAGE);
  });

  it('removes all headers with an empty map, and replaces a value', () => {
    const removed = toMcpServerFormValues(server);
    removed.headers = [];
    expect(buildMcpServerInput(removed, server).input).toEqual({ headers: {} });
    const replaced = toMcpServerFormValues(server);
    replaced.headers = [{ ...replaced.headers[0]!, stored: false, value: 'Bearer new' }];
    expect(buildMcpServerInput(replaced, server).input).toEqual({ headers: { Authorization: 'Bearer new' } });
  });

  it('asks to type stored values again when the URL moves to another host, and sends them with it', () => {
    const values = toMcpServerFormValues(server);
    values.url = 'https://other.example/mcp';
    expect(storedHeadersWouldMove(values, server)).toBe(true);
    const { input, errors } = buildMcpServerInput(values, server);
    expect(input).toBeUndefined();
    expect(Object.values(errors.headerRows ?? {})).toEqual([REENTER_FOR_NEW_HOST_MESSAGE]);
    // Typed again (or removed): the new map goes with the new URL.
    values.headers = [{ ...newHeaderRow('Authorization'), value: 'Bearer for-other' }];
    expect(buildMcpServerInput(values, server).input).toEqual({ url: 'https://other.example/mcp', headers: { Authorization: 'Bearer for-other' } });
    values.headers = [];
    expect(buildMcpServerInput(values, server).input).toEqual({ url: 'https://other.example/mcp', headers: {} });
    // Another path on the same host keeps them.
    const samePlace = toMcpServerFormValues(server);
    samePlace.url = 'https://mcp.example.com/v2/mcp';
    expect(buildMcpServerInput(samePlace, server).input).toEqual({ url: 'https://mcp.example.com/v2/mcp' });
  });

  it('rejects unnamed and repeated headers', () => {
    const values = toMcpServerFormValues();
    values.name = 'Facts';
    values.url = 'https://mcp.example.com/mcp';
    values.headers = [
      { ...newHeaderRow(''), value: 'v' },
      { ...newHeaderRow('A'), value: '1' },
      { ...newHeaderRow('a'), value: '2' },
    ];
    const { input, errors } = buildMcpServerInput(values);
    expect(input).toBeUndefined();
    expect(Object.values(errors.headerRows ?? {})).toEqual(['Give the header a name, e.g. Authorization.', '“a” is listed twice.']);
  });
});

describe('describeMcpFailure', () => {
  it('titles each failure kind and prefers the backend’s specific message as the next step', () => {
    expect(describeMcpFailure({ kind: 'unauthorized', message: 'Check the headers (HTTP 401). ' })).toEqual({
      title: 'Not authorised',
      action: 'Check the headers (HTTP 401).',
    });
    expect(describeMcpFailure({ kind: 'refused_address', message: '' }).action).toMatch(/BATON_ALLOW_PRIVATE_URLS/);
    for (const kind of ['unreachable', 'bad_protocol', 'timeout'] as const) {
      expect(describeMcpFailure({ kind, message: '' }).action.length).toBeGreaterThan(20);
      expect(describeMcpFailure({ kind, message: '' }).title).not.toBe('Listing failed');
    }
  });
});
