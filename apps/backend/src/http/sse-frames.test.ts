import type { BatonUIMessageChunk } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../agent/runs/run-channel';
import { sseFrames } from './sse-frames';

const events = (chunks: BatonUIMessageChunk[], from = 0): RunEvent[] => chunks.map((chunk, i) => ({ seq: from + i, chunk }));

function parse(sse: string): { id: number; chunk: BatonUIMessageChunk }[] {
  return sse
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const [idLine, dataLine] = block.split('\n');
      return { id: Number(idLine!.slice('id: '.length)), chunk: JSON.parse(dataLine!.slice('data: '.length)) };
    });
}

describe('sseFrames', () => {
  it('writes a batch as one SSE event per logged event, numbered with its sequence number', () => {
    const chunks: BatonUIMessageChunk[] = [
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Otters ' },
      { type: 'text-delta', id: 't1', delta: 'hold hands.\n\ndata: not an event' },
      { type: 'text-end', id: 't1' },
    ];
    expect(parse(sseFrames(events(chunks, 7)))).toEqual(chunks.map((chunk, i) => ({ id: 7 + i, chunk })));
  });

  it('writes nothing for an empty batch', () => {
    expect(sseFrames([])).toBe('');
  });
});
