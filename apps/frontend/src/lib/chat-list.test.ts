import type { Chat } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { changePages, type ChatPages } from './chat-list';

const chat = (id: string) => ({ id, workspaceId: 'w', parentChatId: null, title: id }) as Chat;
const pages = (...ids: string[][]): ChatPages => ({
  pages: ids.map((p, i) => ({ data: p.map(chat), nextCursor: i < ids.length - 1 ? `c${i}` : null })),
  pageParams: ids.map((_, i) => (i === 0 ? null : `c${i - 1}`)),
});
const ids = (data: ChatPages) => data.pages.map((p) => p.data.map((c) => c.id));

describe('changePages (the sidebar pages in the query cache)', () => {
  it('puts a new chat on top of the first page', () => {
    expect(ids(changePages(pages(['a', 'b'], ['c']), (chats) => [chat('n'), ...chats]))).toEqual([['n', 'a', 'b'], ['c']]);
  });

  it('moves a chat of a later page to the top without listing it twice, keeping page sizes and cursors', () => {
    const moved = changePages(pages(['a', 'b'], ['c', 'd']), (chats) => [chat('d'), ...chats.filter((c) => c.id !== 'd')]);
    expect(ids(moved)).toEqual([
      ['d', 'a'],
      ['b', 'c'],
    ]);
    expect(moved.pages.map((p) => p.nextCursor)).toEqual(['c0', null]);
  });

  it('removes a chat wherever it is', () => {
    expect(ids(changePages(pages(['a', 'b'], ['c']), (chats) => chats.filter((c) => c.id !== 'c'))).flat()).toEqual(['a', 'b']);
  });

  it('lists a chat that moved up while paging once', () => {
    expect(ids(changePages(pages(['a', 'b'], ['a', 'c']), (chats) => chats)).flat()).toEqual(['a', 'b', 'c']);
  });
});
