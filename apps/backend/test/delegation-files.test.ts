import { eq, inArray } from 'drizzle-orm';
import { fileUrl } from '@baton/schemas';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { chat, chatFile, file } from '../src/db/schema';
import { type Account, invitedAccount } from './support/accounts';
import { NodeChat, toolParts } from './support/chat-client';
import { useLeadTeam } from './support/fixtures';
import { FILES, upload } from './support/files';
import { newTaskParts, type StoredPart } from './support/messages';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

// Issue 20, sub-agents: `newTask` takes `attachments` (ids of files of the conversation); the
// sub-chat's first message carries them in both flows, the sub-agent reads them, and a file the
// conversation does not have is an error result for the parent, never a failed turn.
const t = useTestApp({ demoDelayMs: 1 });
const W = '/api/workspaces/default';
const agents = useLeadTeam(t);
let member: Account;
let otherWorkspace: string;

beforeAll(async () => {
  member = await invitedAccount(t.anonymous, t.owner, 'member-files-sub@baton.test');
  otherWorkspace = (await json(await t.request('/api/workspaces', { json: { name: 'Elsewhere' } }))).id;
});

let n = 0;
const uid = (p: string) => `${p}_files_sub_${n++}`;

type Uploaded = { id: string; name: string; mediaType: string; url: string };
async function uploaded(name: string, bytes: Uint8Array, opts: Parameters<typeof upload>[3] = {}): Promise<Uploaded> {
  const res = await upload(t, name, bytes, opts);
  expect(res.status).toBe(201);
  return json(res);
}
const filePart = (f: Uploaded) => ({ type: 'file' as const, mediaType: f.mediaType, filename: f.name, url: f.url });
const NOTES = Buffer.from('Otters hold hands while they sleep, so they do not drift apart.\n');

/** A Lead chat in the browser flow whose first message carries a PDF and a text file and delegates with them. */
async function delegatingChat(line: string) {
  const pdf = await uploaded('report.pdf', FILES.pdf, { type: 'application/pdf' });
  const notes = await uploaded('notes.md', NOTES, { type: 'text/markdown' });
  const parent = new NodeChat({ id: uid('chat'), baseUrl: t.baseUrl, body: { agentId: agents.Lead.id } });
  await parent.sendMessage({ text: line, files: [filePart(pdf), filePart(notes)] });
  await parent.settled();
  const [call] = toolParts(parent.lastMessage, 'newTask');
  return { parent, call: call!, pdf, notes };
}

/** The browser modal's start of a sub-chat, sending `files` with the task. */
function subChat(parent: NodeChat, call: { toolCallId: string; input: { subAgentId: string } }) {
  return new NodeChat({
    id: uid('sub'),
    baseUrl: t.baseUrl,
    body: { agentId: call.input.subAgentId, parentChatId: parent.id, parentToolCallId: call.toolCallId },
  });
}

/** The output a browser delivers for an ended sub-chat (the server stores its own in its place). */
const taskOutputOf = (subChatId: string) => ({
  result: 'done',
  status: 'success' as const,
  subChatId,
  outcome: 'success' as const,
  usage: { inputTokens: 0, outputTokens: 0 },
  truncated: false,
});
const storedChat = async (id: string) => json(await t.request(`${W}/chats/${id}`));
const subChatsOf = (parentId: string) => t.handle.db.select().from(chat).where(eq(chat.parentChatId, parentId));
const givenTo = async (chatId: string) => (await t.handle.db.select().from(chatFile).where(eq(chatFile.chatId, chatId))).map((r) => r.fileId).sort();
// biome-ignore lint/suspicious/noExplicitAny: the wire's content parts, read loosely by the assertions
const lastUserContent = (request: { messages: { role: string; content: unknown }[] }): any[] => {
  const user = request.messages.filter((m) => m.role === 'user').at(-1)!;
  return Array.isArray(user.content) ? user.content : [{ type: 'text', text: user.content }];
};

describe('the browser flow', () => {
  it('lists the files in newTask, passes them on with [files], and the sub-chat is born with them', async () => {
    const { parent, call, pdf, notes } = await delegatingChat('/delegate Researcher: summarise the report [files]');
    // The description names each file of the conversation, those of the latest message marked.
    const description = t.demo.requests.at(-1)!.tools!.find((x) => x.function.name === 'newTask')!.function.description!;
    expect(description).toContain(`- report.pdf (application/pdf, file id: ${pdf.id}) [latest message]`);
    expect(description).toContain(`- notes.md (text/markdown, file id: ${notes.id}) [latest message]`);
    expect(call).toMatchObject({
      state: 'input-available',
      input: { subAgentId: agents.Researcher.id, task: 'summarise the report', attachments: [pdf.id, notes.id] },
    });

    const sub = subChat(parent, call);
    await sub.sendMessage({ text: 'summarise the report', files: [filePart(pdf), filePart(notes)] });
    await sub.settled();
    expect(sub.error).toBeUndefined();
    // The sub-agent read both files from the store and says so in its result.
    const subRequest = t.demo.requests.at(-1)!;
    const content = lastUserContent(subRequest);
    expect(content.find((p) => p.type === 'file')?.file.file_data).toBe(`data:application/pdf;base64,${FILES.pdf.toString('base64')}`);
    expect(content).toContainEqual({ type: 'text', text: `File notes.md:\n${NOTES}` });
    const [result] = toolParts(sub.lastMessage, 'taskResult');
    expect(result!.input.status).toBe('success');
    expect(result!.input.result).toContain('I received 2 files:\n- report.pdf: application/pdf');
    expect(result!.input.result).toContain('- notes.md: text, 64 bytes');

    // Stored: the task with the files as references, and the files given to the sub-chat (still the parent's).
    const stored = await storedChat(sub.id);
    expect(stored.messages[0].parts).toEqual([{ type: 'text', text: 'summarise the report' }, filePart(pdf), filePart(notes)]);
    expect(await givenTo(sub.id)).toEqual([pdf.id, notes.id].sort());
    const rows = await t.handle.db
      .select()
      .from(file)
      .where(inArray(file.id, [pdf.id, notes.id]));
    expect(rows.map((r) => r.chatId)).toEqual([parent.id, parent.id]);
  });

  it('refuses a first message whose files are not the call’s attachments, creating nothing', async () => {
    const { parent, call, pdf } = await delegatingChat('/delegate Researcher: look at the report [files]');
    // A file of another chat of the same person, and one of no chat: neither is this call's.
    const other = await delegatingChat('/delegate Researcher: something else');
    const loose = await uploaded('loose.txt', Buffer.from('loose'), { type: 'text/plain' });
    for (const foreign of [other.pdf, loose]) {
      const sub = subChat(parent, call);
      await sub.sendMessage({ text: 'look at the report', files: [filePart(pdf), filePart(foreign)] });
      await sub.settled();
      expect(sub.error?.message).toMatch(/loose\.txt|report\.pdf/);
      expect(sub.error?.message).toMatch(/is not an attachment of call/);
    }
    expect(await subChatsOf(parent.id)).toEqual([]);
  });

  it('refuses to start a call whose attachments are not files of the conversation (the browser gives the error result)', async () => {
    const other = await delegatingChat('/delegate Researcher: unrelated');
    const elsewhere = await uploaded('there.txt', Buffer.from('there'), { type: 'text/plain', workspaceId: otherWorkspace });
    const { parent, call, pdf, notes } = await delegatingChat(`/delegate Researcher: compare [files: ${other.pdf.id}, ${elsewhere.id}, file_made_up]`);
    expect(call.input.attachments).toEqual([other.pdf.id, elsewhere.id, 'file_made_up']);
    const sub = subChat(parent, call);
    await sub.sendMessage({ text: 'compare' });
    await sub.settled();
    expect(JSON.parse(sub.error!.message).error).toMatchObject({ code: 'invalid_request' });
    expect(JSON.parse(sub.error!.message).error.message).toBe(
      `attachments: Not run: "${other.pdf.id}", "${elsewhere.id}", "file_made_up" are not files of this conversation. Files you can pass in attachments: report.pdf (${pdf.id}), notes.md (${notes.id}).`,
    );
    expect(await subChatsOf(parent.id)).toEqual([]);
    // The parent carries on with the error result the browser delivers.
    parent.addToolOutput({
      tool: 'newTask',
      toolCallId: call.toolCallId,
      output: {
        result: 'The sub-agent could not start',
        status: 'error',
        subChatId: null,
        outcome: 'error',
        usage: { inputTokens: 0, outputTokens: 0 },
        truncated: false,
      },
    });
    await parent.settled();
    expect(parent.error).toBeUndefined();
    expect(parent.lastMessage!.parts.some((p) => p.type === 'text' && p.text.includes('(error): The sub-agent could not start'))).toBe(true);
  });
});

describe('the server flow (REST)', () => {
  /** A chat whose first message (sent by a browser) has a file, continued over REST, where the server delegates. */
  async function chatWithFile() {
    const { parent, pdf, notes } = await delegatingChat('here are the files');
    return { chatId: parent.id, pdf, notes };
  }

  it('gives the sub-agent the attachments and stores its sub-chat with them', async () => {
    const { chatId, pdf } = await chatWithFile();
    const res = await t.request(`${W}/chats/${chatId}/messages`, { json: { text: `/delegate Researcher: summarise the report [files: ${pdf.id}]` } });
    expect(res.status).toBe(200);
    const [call] = newTaskParts((await json(res)).messages.at(-1));
    expect(call!.input).toMatchObject({ attachments: [pdf.id] });
    expect(call!.output).toMatchObject({ status: 'success', outcome: 'success' });
    expect(call!.output.result).toContain('I received 1 file:\n- report.pdf: application/pdf');
    const sub = await storedChat(call!.output.subChatId);
    expect(sub.messages[0].parts).toEqual([{ type: 'text', text: 'summarise the report' }, filePart(pdf)]);
    expect(await givenTo(sub.id)).toEqual([pdf.id]);
  });

  it('answers a file the conversation does not have with an error result, and the turn goes on', async () => {
    const { chatId, pdf } = await chatWithFile();
    const other = await chatWithFile();
    const res = await t.request(`${W}/chats/${chatId}/messages`, { json: { text: `/delegate Researcher: compare [files: ${pdf.id}, ${other.pdf.id}]` } });
    expect(res.status).toBe(200);
    const last = (await json(res)).messages.at(-1);
    const [call] = newTaskParts(last);
    expect(call!.output).toMatchObject({ status: 'error', outcome: 'error', subChatId: null });
    expect(call!.output.result).toMatch(
      new RegExp(`^Not run: "${other.pdf.id}" is not a file of this conversation\\. Files you can pass in attachments: report\\.pdf`),
    );
    expect(
      last.parts
        .filter((p: StoredPart) => p.type === 'text')
        .map((p: StoredPart) => p.text)
        .join('\n'),
    ).toContain('(error): Not run:');
    expect(await subChatsOf(chatId)).toEqual([]);
  });
});

describe('other ways in', () => {
  it('a retried delegation gives its new attempt the same files', async () => {
    const { parent, call, pdf } = await delegatingChat('/delegate Researcher: summarise [files]');
    const sub = subChat(parent, call);
    await sub.sendMessage({ text: 'summarise' });
    await sub.settled();
    await waitFor('the sub-chat to end', async () => ((await storedChat(sub.id)).status === 'running' ? undefined : true));
    parent.addToolOutput({ tool: 'newTask', toolCallId: call.toolCallId, output: taskOutputOf(sub.id) });
    await parent.settled();
    await waitFor('the parent to be idle', async () => ((await t.isAnswering(parent.id)) ? undefined : true));
    const res = await t.request(`${W}/chats/${parent.id}/delegations/${encodeURIComponent(call.toolCallId)}/retry`, { json: {} });
    expect(res.status).toBe(202);
    const { subChatId, attempt } = await json(res);
    expect(attempt).toBe(2);
    expect((await storedChat(subChatId)).messages[0].parts).toContainEqual(filePart(pdf));
    expect(await givenTo(subChatId)).toHaveLength(2);
    await waitFor('the attempt to end', async () => ((await storedChat(subChatId)).status === 'running' ? undefined : true));
  });

  it('/v1: a message with a file and a /delegate line with [files] gives the Researcher the file', async () => {
    const client = new OpenAI({ baseURL: `${t.baseUrl}/v1`, apiKey: t.owner.apiKey, maxRetries: 0 });
    const data = await client.chat.completions.create({
      model: agents.Lead.id,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '/delegate Researcher: summarise the paper [files]' },
            { type: 'file', file: { filename: 'paper.pdf', file_data: `data:application/pdf;base64,${FILES.pdf.toString('base64')}` } },
          ],
        },
      ],
    });
    const answer = data.choices[0]!.message.content!;
    expect(answer).toContain('**Researcher** (success): Done: summarise the paper');
    expect(answer).toContain(`I received 1 file:\n  - paper.pdf: application/pdf, ${FILES.pdf.length} bytes`);
  });
});

describe('access and deletion', () => {
  it('a sub-chat’s files are readable by whoever reads the parent’s tree, 404 to anyone else, and go with the parent', async () => {
    const { parent, call, pdf, notes } = await delegatingChat('/delegate Researcher: summarise [files]');
    const sub = subChat(parent, call);
    await sub.sendMessage({ text: 'summarise', files: [filePart(pdf)] });
    await sub.settled();
    expect(await givenTo(sub.id)).toEqual([pdf.id, notes.id].sort());
    const [subPart] = (await storedChat(sub.id)).messages[0].parts.filter((p: StoredPart) => p.type === 'file');

    expect((await t.request(subPart.url)).status).toBe(200);
    expect((await t.request(subPart.url, { headers: { cookie: member.cookie } })).status).toBe(404);
    // Another workspace's URL for the same id finds nothing, for the owner too.
    expect((await t.request(fileUrl(otherWorkspace, pdf.id))).status).toBe(404);

    await waitFor('the parent to be idle', async () => ((await t.isAnswering(parent.id)) ? undefined : true));
    expect((await t.request(`${W}/chats/${parent.id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    expect(await subChatsOf(parent.id)).toEqual([]);
    expect(
      await t.handle.db
        .select()
        .from(file)
        .where(inArray(file.id, [pdf.id, notes.id])),
    ).toEqual([]);
    expect(
      await t.handle.db
        .select()
        .from(chatFile)
        .where(inArray(chatFile.fileId, [pdf.id, notes.id])),
    ).toEqual([]);
    expect((await t.request(subPart.url)).status).toBe(404);
  });
});
