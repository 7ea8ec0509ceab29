import { describe, expect, it } from 'vitest';
import { acquireSlot, releaseSlot } from './delegation-slots';

describe('acquireSlot', () => {
  it('starts at most `limit` of a batch; the others are queued and start in call order as slots free', async () => {
    const started: string[] = [];
    const queued: string[] = [];
    const starts = ['a', 'b', 'c', 'd'].map((key) => acquireSlot(key, 'chat:m1:1', 2, () => queued.push(key)).then(() => started.push(key)));
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual(['a', 'b']);
    expect(queued).toEqual(['c', 'd']);

    releaseSlot('b');
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual(['a', 'b', 'c']);
    // A second release of the same delegation gives nothing back twice.
    releaseSlot('b');
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual(['a', 'b', 'c']);

    releaseSlot('a');
    await Promise.all(starts);
    expect(started).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps batches apart', async () => {
    const queued: string[] = [];
    await acquireSlot('x', 'chat:m9:1', 1, () => queued.push('x'));
    await acquireSlot('y', 'chat:m9:2', 1, () => queued.push('y'));
    expect(queued).toEqual([]);
  });
});
