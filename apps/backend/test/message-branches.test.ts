import { BATON_CHAT_ID_HEADER, type ChatWithMessages, type Message } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { NodeChat, postStream, userMessage } from './support/chat-client';
import { useOpenAiClient } from './support/openai-client';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

// Branches (issue 24, item 4): an edit of any user message, or Regenerate, starts a new
// branch and keeps the old one as a version; `…/messages/:id/activate` switches back, and
// every reader — the chat, the next turn's model, search, `/v1` — sees the active branch.
const t = useTestApp({ demoDelayMs: 2 });
const { client } = useOpenAiClient(t);
const ws = '/api/workspaces/default';
let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${n++}`;

async function newAgent() {
  return json(await t.request(`${ws}/agents`, { json: { name: `Brancher ${uid('a')}` } }));
}

async function read(chatId: string): Promise<ChatWithMessages> {
  const res = await t.request(`${ws}/chats/${chatId}`);
  expect(res.status).toBe(200);
  return json(res);
}

const textOf = (m: Pick<Message, 'parts'>) =>
  m.parts
    .filter((p) => p.type === 'text')
    .map((p) => (p as { text: string }).text)
    .join('');

const activate = (chatId: string, messageId: string, prefix = ws) => t.request(`${prefix}/chats/${chatId}/messages/${messageId}/activate`, { method: 'POST' });

/** A chat of three questions and their answers, through the AI SDK's own client. */
async function threeTurns(words: [string, string, string]) {
  const agent = await newAgent();
  const chat = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agent.id } });
  for (const w of words) {
    await chat.sendMessage({ text: `tell me about ${w}` });
    await chat.settled();
  }
  return { agent, chat };
}

/** What the demo model was last sent, as one string. */
const lastModelInput = () => JSON.stringify(t.demo.requests.at(-1)!.messages);

describe('editing an earlier message starts a branch', () => {
  it('edits the first message of a 3-turn chat; the old branch stays stored and can be switched back to', async () => {
    const { chat } = await threeTurns(['walruses', 'narwhals', 'puffins']);
    const before = (await read(chat.id)).messages;
    expect(before).toHaveLength(6);
    expect(before.every((m) => m.versions === undefined)).toBe(true);
    const first = before[0]!;

    await chat.sendMessage({ text: 'tell me about beavers 🦫', messageId: first.id });
    await chat.settled();
    const edited = await read(chat.id);
    expect(edited.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    // The edited message keeps the id the client holds; the old text is an earlier version.
    expect(edited.messages[0]).toMatchObject({ id: first.id, versions: { index: 2, count: 2 } });
    expect(textOf(edited.messages[0]!)).toBe('tell me about beavers 🦫');
    expect(textOf(edited.messages[1]!)).toContain('beavers');
    // The new answer's model call saw the new branch only.
    expect(lastModelInput()).toContain('beavers');
    for (const old of ['walruses', 'narwhals', 'puffins']) expect(lastModelInput()).not.toContain(old);
    const oldFirstId = edited.messages[0]!.versions!.ids[0]!;
    expect(oldFirstId).not.toBe(first.id);

    // Switch back: the whole old branch, as it was, answers included.
    const res = await activate(chat.id, oldFirstId);
    expect(res.status).toBe(200);
    const back = (await json(res)) as ChatWithMessages;
    expect(back.messages.map(textOf)).toEqual(before.map(textOf));
    expect(back.messages.slice(1).map((m) => m.id)).toEqual(before.slice(1).map((m) => m.id));
    expect(back.messages[0]).toMatchObject({ id: oldFirstId, versions: { index: 1, count: 2, ids: [oldFirstId, first.id] } });
    expect((await read(chat.id)).messages).toEqual(back.messages);
    // The title came from the first message: it follows the version shown.
    expect(edited.title).toBe('tell me about beavers 🦫');
    expect(back.title).toBe('tell me about walruses');

    // The next turn on the old branch is written for it alone.
    const next = await postStream(`${t.baseUrl}${ws}/chat`, { id: chat.id, message: userMessage(uid('u'), 'and seals?') });
    expect(next.status).toBe(200);
    expect(lastModelInput()).toContain('puffins');
    expect(lastModelInput()).not.toContain('beavers');
    expect((await read(chat.id)).messages).toHaveLength(8);

    // And forward again: the edited branch as it was left.
    const forward = (await json(await activate(chat.id, first.id))) as ChatWithMessages;
    expect(forward.messages.map((m) => m.id)).toEqual(edited.messages.map((m) => m.id));
    expect(forward.title).toBe('tell me about beavers 🦫');
    // A title the person chose stays, whichever version is shown.
    await t.request(`${ws}/chats/${chat.id}`, { method: 'PATCH', json: { title: 'Mammals' } });
    expect(((await json(await activate(chat.id, oldFirstId))) as ChatWithMessages).title).toBe('Mammals');
  });

  it('edits a middle message: what came before it stays shared by both branches', async () => {
    const { chat } = await threeTurns(['otters', 'herons', 'voles']);
    const before = (await read(chat.id)).messages;
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chat.id, message: userMessage(before[2]!.id, 'tell me about stoats') });
    const after = (await read(chat.id)).messages;
    expect(after.map(textOf).slice(0, 2)).toEqual(before.map(textOf).slice(0, 2));
    expect(after.map((m) => m.id).slice(0, 2)).toEqual(before.map((m) => m.id).slice(0, 2));
    expect(after).toHaveLength(4);
    expect(after[0]!.versions).toBeUndefined();
    expect(after[2]!.versions).toMatchObject({ index: 2, count: 2 });
    expect(lastModelInput()).toContain('otters');
    expect(lastModelInput()).not.toContain('herons');
  });

  it('refuses an assistant message, a message of another branch and NUL bytes, writing nothing', async () => {
    const { chat } = await threeTurns(['moles', 'shrews', 'bats']);
    const before = (await read(chat.id)).messages;
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chat.id, message: userMessage(before[0]!.id, 'tell me about hedgehogs') });
    const inactive = (await read(chat.id)).messages[0]!.versions!.ids[0]!;
    const snapshot = await t.snapshot();
    for (const [id, text] of [
      [before[1]!.id, 'an answer is not mine to edit'],
      [before[2]!.id, 'a message of the other branch'],
      [inactive, 'the old version itself'],
      [before[0]!.id, 'nul\u0000byte'],
    ] as const) {
      const res = await t.request(`${ws}/chat`, { json: { id: chat.id, message: userMessage(id, text) } });
      expect(res.status, text).toBe(400);
    }
    expect(await t.snapshot()).toBe(snapshot);
  });
});

describe('editing through the REST API', () => {
  it('`editMessageId` replaces a user message of the active branch and runs the turn on the new branch', async () => {
    const { chat } = await threeTurns(['bison', 'elk', 'moose']);
    const before = (await read(chat.id)).messages;
    const res = await t.request(`${ws}/chats/${chat.id}/messages`, { json: { text: 'tell me about yaks', editMessageId: before[2]!.id } });
    expect(res.status).toBe(200);
    const turn = await json(res);
    expect(turn.messages.map((m: Message) => m.role)).toEqual(['user', 'assistant']);
    expect(turn.messages[0]).toMatchObject({ id: before[2]!.id });
    expect(textOf(turn.messages[1])).toContain('yaks');
    expect(lastModelInput()).toContain('bison');
    expect(lastModelInput()).not.toContain('elk');
    const after = (await read(chat.id)).messages;
    expect(after).toHaveLength(4);
    expect(after[2]!.versions).toMatchObject({ index: 2, count: 2 });

    const snapshot = await t.snapshot();
    for (const editMessageId of [after[1]!.id, 'msg_nope', after[2]!.versions!.ids[0]!]) {
      const refused = await t.request(`${ws}/chats/${chat.id}/messages`, { json: { text: 'no', editMessageId } });
      expect(refused.status, editMessageId).toBe(400);
    }
    expect(await t.snapshot()).toBe(snapshot);
  });
});

describe('Regenerate keeps versions', () => {
  it('each regenerated answer is a version; switching shows the chosen one', async () => {
    const { chat } = await threeTurns(['lynxes', 'ibexes', 'marmots']);
    const first = (await read(chat.id)).messages;
    const lastUser = first[4]!;
    for (let i = 0; i < 2; i++) {
      const res = await postStream(`${t.baseUrl}${ws}/chat`, { id: chat.id, message: lastUser, trigger: 'regenerate-message' });
      expect(res.status).toBe(200);
    }
    const now = (await read(chat.id)).messages;
    expect(now).toHaveLength(6);
    expect(now[5]!.versions).toMatchObject({ index: 3, count: 3 });
    expect(now[5]!.versions!.ids[0]).toBe(first[5]!.id);
    const switched = (await json(await activate(chat.id, first[5]!.id))) as ChatWithMessages;
    expect(switched.messages.map((m) => m.id)).toEqual(first.map((m) => m.id));
    expect(switched.messages[5]!.versions).toMatchObject({ index: 1, count: 3 });
  });

  it('regenerates an earlier answer: the later turns stay on the old branch', async () => {
    const { chat } = await threeTurns(['cranes', 'storks', 'ibises']);
    const first = (await read(chat.id)).messages;
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chat.id, message: first[0]!, trigger: 'regenerate-message' });
    const now = (await read(chat.id)).messages;
    expect(now.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(now[1]!.versions).toMatchObject({ index: 2, count: 2 });
    expect(lastModelInput()).not.toContain('storks');
    const back = (await json(await activate(chat.id, first[1]!.id))) as ChatWithMessages;
    expect(back.messages.map((m) => m.id)).toEqual(first.map((m) => m.id));
  });

  it('spent tokens stay counted when an answer leaves the active branch', async () => {
    const { chat } = await threeTurns(['geckos', 'skinks', 'iguanas']);
    const before = await read(chat.id);
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chat.id, message: userMessage(before.messages[0]!.id, 'tell me about newts') });
    const after = await read(chat.id);
    expect(after.usage.total.inputTokens).toBeGreaterThan(before.usage.total.inputTokens);
    expect(after.inputTokens).toBeGreaterThan(before.inputTokens);
  });
});

describe('switching versions', () => {
  it('answers 409 while the chat is answering, and switches nothing', async () => {
    const { chat } = await threeTurns(['crows', 'rooks', 'jays']);
    const messages = (await read(chat.id)).messages;
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chat.id, message: userMessage(messages[4]!.id, 'tell me about magpies') });
    const old = (await read(chat.id)).messages[4]!.versions!.ids[0]!;
    const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const started = await postStream(`${t.baseUrl}${ws}/chat`, { id: chat.id, message: userMessage(uid('u'), long) }, { stopAfterChunks: 3 });
    expect(started.status).toBe(200);
    expect(await t.isAnswering(chat.id)).toBe(true);
    const res = await activate(chat.id, old);
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe('conflict');
    await waitFor('the answer to end', async () => ((await t.isAnswering(chat.id)) ? undefined : true), 30_000);
    const after = (await read(chat.id)).messages;
    expect(after).toHaveLength(8);
    expect(textOf(after[4]!)).toBe('tell me about magpies');
  });

  it("another workspace's chat and another chat's message are 404; activating the active version changes nothing", async () => {
    const { chat } = await threeTurns(['koalas', 'wombats', 'quokkas']);
    const messages = (await read(chat.id)).messages;
    const other = await threeTurns(['emus', 'kiwis', 'rheas']);
    const otherMessage = (await read(other.chat.id)).messages[0]!;
    const side = await json(await t.request('/api/workspaces', { json: { name: `Branches elsewhere ${uid('w')}` } }));
    const snapshot = await t.snapshot();
    expect((await activate(chat.id, messages[0]!.id, `/api/workspaces/${side.id}`)).status).toBe(404);
    const foreign = await activate(chat.id, otherMessage.id);
    expect(foreign.status).toBe(404);
    expect((await json(foreign)).error.code).toBe('not_found');
    // A NUL in a path is refused as every path parameter is, before any query.
    expect((await activate(chat.id, 'no\u0000such')).status).toBe(400);
    expect((await activate(uid('nochat'), messages[0]!.id)).status).toBe(404);
    const same = await activate(chat.id, messages[2]!.id);
    expect(same.status).toBe(200);
    expect(await t.snapshot()).toBe(snapshot);
  });

  it('two switches at once leave one whole branch active', async () => {
    const { chat } = await threeTurns(['hares', 'pikas', 'coneys']);
    const first = (await read(chat.id)).messages;
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chat.id, message: userMessage(first[2]!.id, 'tell me about jerboas') });
    const edited = (await read(chat.id)).messages;
    const [a, b] = await Promise.all([activate(chat.id, edited[2]!.versions!.ids[0]!), activate(chat.id, edited[2]!.id)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const final = (await read(chat.id)).messages;
    const ids = final.map((m) => m.id);
    expect([
      first
        .map((m) => m.id)
        .slice(0, 2)
        .concat(edited[2]!.versions!.ids[0]!, ...first.slice(3).map((m) => m.id)),
      edited.map((m) => m.id),
    ]).toContainEqual(ids);
  });
});

describe('delegations belong to the branch that made them', () => {
  it('a sub-chat of the old branch stays stored, is hidden from the new one (search too) and is back with its branch', async () => {
    const word = `otterz${Date.now().toString(36)}`;
    const writer = await json(await t.request(`${ws}/agents`, { json: { name: `Writer ${uid('a')}` } }));
    const lead = await json(await t.request(`${ws}/agents`, { json: { name: `Lead ${uid('a')}`, subAgentIds: [writer.id] } }));
    const chat = await json(await t.request(`${ws}/chats`, { json: { agentId: lead.id, title: 'Delegating' } }));
    const first = await t.request(`${ws}/chats/${chat.id}/messages`, { json: { text: `/delegate ${writer.name}: a poem about ${word}` } });
    expect(first.status).toBe(200);
    const subChats = async () => (await json(await t.request(`${ws}/chats/${chat.id}/sub-chats`))).data as { id: string; parentToolCallId: string }[];
    const [sub] = await subChats();
    expect(sub).toBeDefined();
    const callIn = (messages: Message[]) =>
      messages.flatMap((m) => m.parts).find((p) => p.type === 'tool-newTask') as { toolCallId: string; output?: { subChatId?: string } } | undefined;
    const before = (await read(chat.id)).messages;
    expect(callIn(before)?.output?.subChatId).toBe(sub!.id);
    const search = async () => (await json(await t.request(`${ws}/chats/search?q=${word}`))).data.map((h: { chat: { id: string } }) => h.chat.id);
    expect(await search()).toContain(chat.id);

    const edited = await t.request(`${ws}/chats/${chat.id}/messages`, { json: { text: 'just say hello', editMessageId: before[0]!.id } });
    expect(edited.status).toBe(200);
    const now = (await read(chat.id)).messages;
    expect(callIn(now)).toBeUndefined();
    // Kept with the branch that made it, and found by neither its own words nor its parent's old ones.
    expect((await subChats()).map((c) => c.id)).toEqual([sub!.id]);
    expect((await t.request(`${ws}/chats/${sub!.id}`)).status).toBe(200);
    expect(await search()).not.toContain(chat.id);

    const back = (await json(await activate(chat.id, now[0]!.versions!.ids[0]!))) as ChatWithMessages;
    expect(callIn(back.messages)?.output?.subChatId).toBe(sub!.id);
    expect(await search()).toContain(chat.id);
  });
});

describe('readers see the active branch', () => {
  it('search finds words of the active branch only, and again after switching back', async () => {
    const word = `zqx${Date.now().toString(36)}`;
    const { chat } = await threeTurns([word, 'larks', 'finches']);
    const first = (await read(chat.id)).messages;
    const search = async () => (await json(await t.request(`${ws}/chats/search?q=${word}`))).data.map((h: { chat: { id: string } }) => h.chat.id);
    expect(await search()).toContain(chat.id);
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chat.id, message: userMessage(first[0]!.id, 'tell me about wrens') });
    // The title came from the first message and followed its edit, so only messages could match.
    expect(await search()).not.toContain(chat.id);
    const old = (await read(chat.id)).messages[0]!.versions!.ids[0]!;
    expect((await activate(chat.id, old)).status).toBe(200);
    expect(await search()).toContain(chat.id);
  });

  it('/v1 Responses: previous_response_id of a response on an inactive branch is refused', async () => {
    const agent = await newAgent();
    const first = await client().responses.create({ model: agent.id, input: 'tell me about ospreys' }).withResponse();
    const chatId = first.response.headers.get(BATON_CHAT_ID_HEADER)!;
    const second = await client().responses.create({ model: agent.id, input: 'and kestrels?', previous_response_id: first.data.id });
    const stored = (await read(chatId)).messages;
    expect(stored).toHaveLength(4);
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chatId, message: userMessage(stored[0]!.id, 'tell me about owls') });
    const stale = await client()
      .responses.create({ model: agent.id, input: 'and merlins?', previous_response_id: second.id })
      .catch((err: { status: number; message: string }) => err);
    expect(stale).toMatchObject({ status: 400 });
    expect((stale as { message: string }).message).toContain('no longer active');
    // Switched back, it is the active branch again and goes on from there.
    expect((await activate(chatId, (await read(chatId)).messages[0]!.versions!.ids[0]!)).status).toBe(200);
    const resumed = await client().responses.create({ model: agent.id, input: 'and merlins?', previous_response_id: second.id });
    expect(resumed.output_text).toContain('merlins');
    expect(lastModelInput()).toContain('kestrels');
    expect(lastModelInput()).not.toContain('owls');
  });

  it('/v1 continues the active branch', async () => {
    const { agent, chat } = await threeTurns(['toads', 'frogs', 'salamanders']);
    const first = (await read(chat.id)).messages;
    await postStream(`${t.baseUrl}${ws}/chat`, { id: chat.id, message: userMessage(first[0]!.id, 'tell me about axolotls') });
    await client().chat.completions.create(
      { model: agent.id, messages: [{ role: 'user', content: 'and caecilians?' }] },
      { headers: { [BATON_CHAT_ID_HEADER]: chat.id } },
    );
    expect(lastModelInput()).toContain('axolotls');
    expect(lastModelInput()).not.toContain('frogs');
    const stored = (await read(chat.id)).messages;
    expect(stored.map(textOf)[2]).toBe('and caecilians?');
  });
});
