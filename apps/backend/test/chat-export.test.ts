import { type ChatExport, MAX_EXPORT_FILE_BYTES, MAX_IMPORT_BYTES } from '@baton/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { UNFINISHED_CALL_TEXT } from '../src/services/chat-import';
import { invitedAccount } from './support/accounts';
import { FILES, upload } from './support/files';
import { inArray } from 'drizzle-orm';
import { file as fileTable } from '../src/db/schema';
import { json, useTestApp } from './support/test-app';

const t = useTestApp({ demoDelayMs: 1 });

type Part = {
  type: string;
  text?: string;
  toolCallId?: string;
  state?: string;
  errorText?: string;
  input?: { subAgentId?: string };
  output?: { subChatId?: string };
};
type StoredMessage = { id: string; role: string; parts: Part[] };

/** Two workspaces of the owner, each with its own starter agents (Assistant → Researcher, Writer): the export's home and where it is imported. */
let A: string;
let B: string;
let agentsA: Record<string, string>;
let agentsB: Record<string, string>;
let source: { id: string; subChatId: string };

async function workspaceWithAgents(name: string) {
  const ws = await json(await t.request('/api/workspaces', { json: { name } }));
  const list = (await json(await t.request(`/api/workspaces/${ws.id}/agents`))).data as { id: string; name: string }[];
  return { path: `/api/workspaces/${ws.id}`, agents: Object.fromEntries(list.map((a) => [a.name, a.id])) };
}

const exportJson = async (ws: string, chatId: string) => {
  const res = await t.request(`${ws}/chats/${chatId}/export?format=json`);
  expect(res.status).toBe(200);
  return (await json(res)) as ChatExport;
};
const importInto = (ws: string, body: unknown, headers: Record<string, string> = {}) =>
  t.request(`${ws}/chats/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const textOf = (messages: StoredMessage[]) => messages.map((m) => [m.role, m.parts.filter((p) => p.type === 'text').map((p) => p.text)]);

beforeAll(async () => {
  const a = await workspaceWithAgents('Export from');
  const b = await workspaceWithAgents('Import into');
  [A, B, agentsA, agentsB] = [a.path, b.path, a.agents, b.agents];
  const c = await json(await t.request(`${A}/chats`, { json: { agentId: agentsA.Assistant } }));
  expect((await t.request(`${A}/chats/${c.id}/messages`, { json: { text: '/delegate Researcher: facts about "otters" 🦦' } })).status).toBe(200);
  const sub = (await json(await t.request(`${A}/chats/${c.id}/sub-chats`))).data[0];
  source = { id: c.id, subChatId: sub.id };
});

describe('chat export', () => {
  it('exports JSON with a version, messages, sub-chats and the trace, as a download with a safe file name', async () => {
    const res = await t.request(`${A}/chats/${source.id}/export?format=json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const disposition = res.headers.get('content-disposition')!;
    expect(disposition).toBe(`attachment; filename="Researcher facts about otters.json"; filename*=UTF-8''Researcher%20facts%20about%20otters.json`);
    const data = (await json(res)) as ChatExport;
    expect(data.version).toBe(1);
    expect(data.chat).toMatchObject({ id: source.id, agentName: 'Assistant', delegation: null });
    expect(data.chat.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(data.chat.subChats).toHaveLength(1);
    expect(data.chat.subChats[0]).toMatchObject({
      id: source.subChatId,
      agentName: 'Researcher',
      delegation: { task: 'facts about "otters" 🦦', outcome: 'success' },
    });
    expect(data.trace).toMatchObject({ chatId: source.id, children: [{ chatId: source.subChatId, agentName: 'Researcher' }] });
  });

  it('names the download from the title without paths, quotes or line breaks', async () => {
    const c = await json(await t.request(`${A}/chats`, { json: { title: '../..\\etc/"passwd"\r\nX-Evil: 1 ✨ Überblick' } }));
    const disposition = (await t.request(`${A}/chats/${c.id}/export?format=markdown`)).headers.get('content-disposition')!;
    expect(disposition).toBe(`attachment; filename="etc passwd X-Evil 1 _berblick.md"; filename*=UTF-8''etc%20passwd%20X-Evil%201%20%C3%9Cberblick.md`);
    const empty = await json(await t.request(`${A}/chats`, { json: { title: '🦦🦦' } }));
    expect((await t.request(`${A}/chats/${empty.id}/export`)).headers.get('content-disposition')).toContain('filename="chat.json"');
  });

  it('exports Markdown: the conversation, the delegation and its sub-chat quoted below it', async () => {
    const res = await t.request(`${A}/chats/${source.id}/export?format=markdown`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/markdown');
    expect(res.headers.get('content-disposition')).toContain('.md"');
    const md = await res.text();
    expect(md.startsWith('# Researcher: facts about "otters" 🦦\n')).toBe(true);
    expect(md).toContain('### You');
    expect(md).toContain('> **Delegated to Researcher** — success');
    expect(md).toContain('> #### The conversation of Researcher');
    expect(md).toContain('> Task: facts about "otters" 🦦');
  });

  it('names each answer in Markdown by the agent that wrote it, after the chat switched agents', async () => {
    const c = await json(await t.request(`${A}/chats`, { json: { agentId: agentsA.Assistant } }));
    expect((await t.request(`${A}/chats/${c.id}/messages`, { json: { text: 'first question' } })).status).toBe(200);
    expect((await t.request(`${A}/chats/${c.id}`, { method: 'PATCH', json: { agentId: agentsA.Writer } })).status).toBe(200);
    expect((await t.request(`${A}/chats/${c.id}/messages`, { json: { text: 'second question' } })).status).toBe(200);
    const md = await (await t.request(`${A}/chats/${c.id}/export?format=markdown`)).text();
    const authors = [...md.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    expect(authors).toEqual(['You', 'Assistant (baton-demo)', 'You', 'Writer (baton-demo)']);
  });

  it('is 404 for another workspace’s path, another member’s chat and unknown ids; a bad format is 400', async () => {
    expect((await t.request(`/api/workspaces/default/chats/${source.id}/export`)).status).toBe(404);
    const member = await invitedAccount(t.anonymous, t.owner, 'exporter@baton.test', { workspaceId: A.split('/').at(-1) });
    expect((await t.request(`${A}/chats/${source.id}/export`, { headers: { cookie: member.cookie } })).status).toBe(404);
    expect((await t.request(`${A}/chats/nope/export`)).status).toBe(404);
    expect((await t.request(`${A}/chats/${source.id}/export?format=pdf`)).status).toBe(400);
  });
});

describe('chat import', () => {
  it('imports an export into another workspace: fresh ids, sub-chats linked, agents matched by name, and it exports again the same', async () => {
    const exported = await exportJson(A, source.id);
    const res = await importInto(B, exported);
    expect(res.status).toBe(201);
    const { id } = await json(res);
    expect(id).not.toBe(source.id);

    const chat = await json(await t.request(`${B}/chats/${id}`));
    expect(chat).toMatchObject({ title: exported.chat.title, agentId: agentsB.Assistant, parentChatId: null });
    expect(textOf(chat.messages)).toEqual(textOf(exported.chat.messages as StoredMessage[]));
    for (const m of chat.messages as StoredMessage[]) expect(exported.chat.messages.map((e) => e.id)).not.toContain(m.id);
    // The imported chat is the newest in the list.
    expect((await json(await t.request(`${B}/chats`))).data[0].id).toBe(id);

    const subs = (await json(await t.request(`${B}/chats/${id}/sub-chats`))).data;
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ agentId: agentsB.Researcher, delegateTask: 'facts about "otters" 🦦', outcome: 'success', status: 'success', depth: 1 });
    expect(subs[0].id).not.toBe(source.subChatId);
    // The delegation block's call names the new sub-chat and the agent of this workspace.
    const call = (chat.messages[1] as StoredMessage).parts.find((p) => p.type === 'tool-newTask')!;
    expect(call.output?.subChatId).toBe(subs[0].id);
    expect(call.input?.subAgentId).toBe(agentsB.Researcher);
    expect(subs[0].parentToolCallId).toBe(call.toolCallId);
    const sub = await json(await t.request(`${B}/chats/${subs[0].id}`));
    expect(textOf(sub.messages)).toEqual(textOf(exported.chat.subChats[0]!.messages as StoredMessage[]));
    // The old workspace's ids are not reachable from here.
    expect((await t.request(`${B}/chats/${source.id}`)).status).toBe(404);

    // Round trip: the imported chat exports as the original did, under its new ids.
    const again = await exportJson(B, id);
    expect(textOf(again.chat.messages as StoredMessage[])).toEqual(textOf(exported.chat.messages as StoredMessage[]));
    expect(again.chat.subChats[0]!.delegation).toMatchObject({
      task: exported.chat.subChats[0]!.delegation!.task,
      result: exported.chat.subChats[0]!.delegation!.result,
    });
    expect(again.trace.children.map((n) => n.agentName)).toEqual(['Researcher']);

    // The imported chat goes on: a new turn is answered.
    const turn = await t.request(`${B}/chats/${id}/messages`, { json: { text: 'thanks!' } });
    expect(turn.status).toBe(200);
  });

  it('keeps a chat readable when its agents do not exist in the workspace, and ends what the export left unfinished', async () => {
    const exported = await exportJson(A, source.id);
    exported.chat.agentId = 'agent_gone';
    exported.chat.agentName = 'Ghost';
    exported.chat.subChats[0]!.agentId = 'agent_gone_too';
    exported.chat.subChats[0]!.agentName = 'Phantom';
    exported.chat.subChats[0]!.delegation!.outcome = null;
    // The answer's delegation as it was while it ran: no output yet.
    const call = (exported.chat.messages[1] as StoredMessage).parts.find((p) => p.type === 'tool-newTask') as Part & Record<string, unknown>;
    call.state = 'input-available';
    delete call.output;
    call.input = { ...call.input, subAgentId: 'agent_gone_too' };

    const { id } = await json(await importInto(B, exported));
    const chat = await json(await t.request(`${B}/chats/${id}`));
    expect(chat.agentId).toBeNull();
    const ended = (chat.messages[1] as StoredMessage).parts.find((p) => p.type === 'tool-newTask')!;
    expect(ended).toMatchObject({ state: 'output-error', errorText: UNFINISHED_CALL_TEXT });
    const subs = (await json(await t.request(`${B}/chats/${id}/sub-chats`))).data;
    expect(subs[0]).toMatchObject({ agentId: null, outcome: 'interrupted' });
    expect((await t.request(`${B}/chats/${subs[0].id}`)).status).toBe(200);
    expect((await t.request(`${B}/chats/${id}/trace`)).status).toBe(200);
  });

  it('refuses a bad file with 400 and writes nothing', async () => {
    const exported = await exportJson(A, source.id);
    const twice = structuredClone(exported);
    twice.chat.subChats.push(structuredClone(twice.chat.subChats[0]!));
    const dupMessage = structuredClone(exported);
    dupMessage.chat.messages[1]!.id = dupMessage.chat.messages[0]!.id;
    let deep: Record<string, unknown> = { ...structuredClone(exported.chat), subChats: [] };
    for (let i = 0; i < 12; i++) deep = { ...structuredClone(exported.chat), id: `deep_${i}`, messages: [], subChats: [deep] };

    const before = await t.snapshot();
    const bad: [string, unknown][] = [
      ['not JSON', '{"version": 1, "chat": '],
      ['a list', '[]'],
      ['another version', { ...exported, version: 2 }],
      ['no chat', { version: 1 }],
      ['a part without a type', { ...exported, chat: { ...exported.chat, messages: [{ id: 'm', role: 'user', parts: [{ text: 'hi' }] }] } }],
      ['an unknown role', { ...exported, chat: { ...exported.chat, messages: [{ id: 'm', role: 'tool', parts: [] }] } }],
      ['a NUL in the title', { ...exported, chat: { ...exported.chat, title: 'a\u0000b' } }],
      [
        'an unknown outcome',
        {
          ...exported,
          chat: { ...exported.chat, subChats: [{ ...exported.chat.subChats[0], delegation: { ...exported.chat.subChats[0]!.delegation, outcome: 'great' } }] },
        },
      ],
      ['the same sub-chat twice', twice],
      ['the same message id twice', dupMessage],
      ['sub-chats nested too deep', { ...exported, chat: deep }],
    ];
    for (const [what, body] of bad) {
      const res = await importInto(B, body);
      expect(res.status, what).toBe(400);
      const error = (await json(res)).error;
      expect(['invalid_json', 'invalid_request'], what).toContain(error.code);
      expect(error.message, what).toBeTruthy();
    }
    expect(await t.snapshot()).toBe(before);
  });

  it('refuses an import over the size limit with 413, and takes one over the API’s usual 1 MiB', async () => {
    const exported = await exportJson(A, source.id);
    const big = structuredClone(exported);
    big.chat.messages[0]!.parts = [{ type: 'text', text: 'x'.repeat(2 * 1024 * 1024) }];
    const res = await importInto(B, big);
    expect(res.status).toBe(201);
    const huge = structuredClone(exported);
    huge.chat.messages[0]!.parts = [{ type: 'text', text: 'x'.repeat(MAX_IMPORT_BYTES) }];
    const before = await t.snapshot();
    const refused = await importInto(B, huge);
    expect(refused.status).toBe(413);
    expect((await json(refused)).error.code).toBe('payload_too_large');
    expect(await t.snapshot()).toBe(before);
  });

  it('imports the same file twice at once as two chats', async () => {
    const exported = await exportJson(A, source.id);
    const [x, y] = await Promise.all([importInto(B, exported), importInto(B, exported)]);
    expect([x.status, y.status]).toEqual([201, 201]);
    expect((await json(x)).id).not.toBe((await json(y)).id);
  });
});

describe('export and import of a chat with branches', () => {
  it('export the active branch only; the imported chat is one chain, edited into a new branch like any other', async () => {
    const c = await json(await t.request(`${A}/chats`, { json: { agentId: agentsA.Assistant } }));
    for (const text of ['first question', 'second question']) {
      expect((await t.request(`${A}/chats/${c.id}/messages`, { json: { text } })).status).toBe(200);
    }
    const before = (await json(await t.request(`${A}/chats/${c.id}`))).messages as StoredMessage[];
    // Edit the first question: a branch of one question and its answer, the old branch kept.
    expect((await t.request(`${A}/chats/${c.id}/messages`, { json: { text: 'first, asked again', editMessageId: before[0]!.id } })).status).toBe(200);
    const active = (await json(await t.request(`${A}/chats/${c.id}`))).messages as StoredMessage[];
    expect(active).toHaveLength(2);

    const exported = await exportJson(A, c.id);
    expect(textOf(exported.chat.messages as StoredMessage[])).toEqual(textOf(active));
    const markdown = await (await t.request(`${A}/chats/${c.id}/export?format=markdown`)).text();
    expect(markdown).toContain('first, asked again');
    expect(markdown).not.toContain('second question');

    const res = await importInto(B, exported);
    expect(res.status).toBe(201);
    const imported = (await json(res)).id as string;
    const copy = (await json(await t.request(`${B}/chats/${imported}`))).messages as (StoredMessage & { versions?: unknown })[];
    expect(textOf(copy)).toEqual(textOf(active));
    expect(copy.every((m) => m.versions === undefined)).toBe(true);
    // Its messages are a chain: editing the first one makes a second version of it, not a muddle.
    expect((await t.request(`${B}/chats/${imported}/messages`, { json: { text: 'imported, then edited', editMessageId: copy[0]!.id } })).status).toBe(200);
    const edited = (await json(await t.request(`${B}/chats/${imported}`))).messages as (StoredMessage & { versions?: { index: number; count: number } })[];
    expect(edited).toHaveLength(2);
    expect(edited[0]!.versions).toMatchObject({ index: 2, count: 2 });
  });
});

describe('files in an export', () => {
  const wsId = (path: string) => path.split('/').at(-1)!;
  type FilePart = { type: 'file'; url: string; filename?: string; mediaType: string };
  const fileParts = (messages: { parts: { type: string }[] }[]) => messages.flatMap((m) => m.parts.filter((p): p is FilePart => p.type === 'file'));

  /** A chat of workspace A whose first message carries these uploads. */
  async function chatWithFiles(uploads: { name: string; bytes: Uint8Array; mediaType: string }[]) {
    const stored = [];
    for (const u of uploads) stored.push(await json(await upload(t, u.name, u.bytes, { workspaceId: wsId(A) })));
    const c = await json(await t.request(`${A}/chats`, { json: { agentId: agentsA.Assistant } }));
    const files = stored.map((f, i) => ({ type: 'file', mediaType: uploads[i]!.mediaType, filename: f.name, url: f.url }));
    const sent = await t.request(`${A}/chats/${c.id}/messages`, { json: { text: 'read these 🦦', files } });
    expect(sent.status, await sent.clone().text()).toBe(200);
    return { chatId: c.id as string, stored: stored as { url: string; name: string }[] };
  }

  it('carries the files its messages name; imported, they are files of the new chat, which the parts name', async () => {
    const { chatId, stored } = await chatWithFiles([
      { name: 'notes.txt', bytes: Buffer.from('otter notes 🦦'), mediaType: 'text/plain' },
      { name: 'dot.png', bytes: FILES.png, mediaType: 'image/png' },
    ]);
    const exported = await exportJson(A, chatId);
    expect(exported.files.map((f) => [f.url, f.name, f.mediaType])).toEqual([
      [stored[0]!.url, 'notes.txt', 'text/plain'],
      [stored[1]!.url, 'dot.png', 'image/png'],
    ]);
    expect(Buffer.from(exported.files[0]!.data, 'base64').toString()).toBe('otter notes 🦦');
    expect(exported.filesLeftOut).toEqual([]);

    const res = await importInto(B, exported);
    expect(res.status).toBe(201);
    const { id } = await json(res);
    const imported = await json(await t.request(`${B}/chats/${id}`));
    const parts = fileParts(imported.messages);
    expect(parts.map((p) => p.filename)).toEqual(['notes.txt', 'dot.png']);
    for (const [i, p] of parts.entries()) {
      expect(p.url.startsWith(`/api/workspaces/${wsId(B)}/files/`)).toBe(true);
      const bytes = Buffer.from(await (await t.request(p.url)).arrayBuffer());
      expect(bytes.equals(i === 0 ? Buffer.from('otter notes 🦦') : FILES.png)).toBe(true);
    }
    // They are the new chat's files (what a turn there hands the model), not the exporter's uploads.
    const rows = await t.handle.db
      .select({ chatId: fileTable.chatId, workspaceId: fileTable.workspaceId })
      .from(fileTable)
      .where(
        inArray(
          fileTable.id,
          parts.map((p) => p.url.split('/').at(-1)!),
        ),
      );
    expect(rows).toEqual([
      { chatId: id, workspaceId: wsId(B) },
      { chatId: id, workspaceId: wsId(B) },
    ]);
  });

  it('leaves out files past the limit, keeping their URLs in the parts', async () => {
    const big = Buffer.alloc(MAX_EXPORT_FILE_BYTES - 100, 'a');
    const { chatId, stored } = await chatWithFiles([
      { name: 'big.txt', bytes: big, mediaType: 'text/plain' },
      { name: 'small.txt', bytes: Buffer.from('x'.repeat(200)), mediaType: 'text/plain' },
    ]);
    const exported = await exportJson(A, chatId);
    expect(exported.files.map((f) => f.name)).toEqual(['big.txt']);
    expect(exported.filesLeftOut).toEqual([stored[1]!.url]);
    const { id } = await json(await importInto(B, exported));
    const parts = fileParts((await json(await t.request(`${B}/chats/${id}`))).messages);
    expect(parts.map((p) => p.url.startsWith(`/api/workspaces/${wsId(B)}/`))).toEqual([true, false]);
    expect(parts[1]!.url).toBe(stored[1]!.url);
  });

  it('refuses an import whose file an upload would refuse, or whose data is not base64, and writes nothing', async () => {
    const { chatId } = await chatWithFiles([{ name: 'notes.txt', bytes: Buffer.from('notes'), mediaType: 'text/plain' }]);
    const exported = await exportJson(A, chatId);
    const before = (await json(await t.request(`${B}/chats`))).data.length;
    const exe = { ...exported, files: [{ ...exported.files[0]!, name: 'notes.exe', data: FILES.exe.toString('base64') }] };
    const refused = await importInto(B, exe);
    expect(refused.status).toBe(415);
    expect((await json(refused)).error.message).toContain('notes.exe');
    const garbled = await importInto(B, { ...exported, files: [{ ...exported.files[0]!, data: 'not base64 ✗' }] });
    expect(garbled.status).toBe(400);
    expect((await json(garbled)).error.message).toContain('files');
    expect((await json(await t.request(`${B}/chats`))).data.length).toBe(before);
  });
});
