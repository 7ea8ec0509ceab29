import { SNAPSHOT_PDF, SNAPSHOT_PNG, startTestMcpServer, type TestMcpServer } from '@baton/mcp-test-server';
import { mcpToolId } from '@baton/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { file } from '../src/db/schema';
import { type Account, invitedAccount } from './support/accounts';
import { type StoredPart, partsText } from './support/messages';
import { json, useTestApp } from './support/test-app';

// Issue 20, MCP: a tool result's image and binary resources are stored as files of the chat
// (shown in the chat, read by whoever reads it, gone with it); embedded resources' text is kept;
// the model reads the text with a line naming each stored file.
const t = useTestApp({ allowPrivateUrls: true });
const ws = '/api/workspaces/default';
let mcp: TestMcpServer;
let serverId: string;
let member: Account;

beforeAll(async () => {
  mcp = await startTestMcpServer({ mediaTools: true });
  const row = await json(await t.request(`${ws}/mcp-servers`, { json: { name: 'Camera', url: mcp.url } }));
  expect(row.toolsError).toBeNull();
  serverId = row.id;
  member = await invitedAccount(t.anonymous, t.owner, 'member-mcp-files@baton.test');
});
afterAll(() => mcp?.close());

describe('MCP results with images and resources', () => {
  it('stores the image and the binary resource as files of the chat, keeps the resource text, and the model reads the text', async () => {
    const viewer = await json(await t.request(`${ws}/agents`, { json: { name: 'Viewer' } }));
    const agent = await json(
      await t.request(`${ws}/agents`, { json: { name: 'Photographer', toolIds: [mcpToolId(serverId, 'snapshot')], subAgentIds: [viewer.id] } }),
    );
    const c = await json(await t.request(`${ws}/chats`, { json: { agentId: agent.id } }));
    const res = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: '/tool snapshot {"subject":"otters"}' } });
    expect(res.status).toBe(200);
    const assistant = (await json(res)).messages.at(-1) as { parts: StoredPart[] };
    const call = assistant.parts.find((p) => p.type === 'tool-snapshot')!;
    expect(call.state).toBe('output-available');
    const { text, files } = call.output as { text: string; files: { id: string; name: string; mediaType: string; url: string }[] };
    expect(files.map((f) => [f.name, f.mediaType])).toEqual([
      ['snapshot-image-1.png', 'image/png'],
      ['report.pdf', 'application/pdf'],
    ]);
    expect(text).toBe(
      [
        'Snapshot of otters.',
        `[Image snapshot-image-1.png (image/png), stored in this chat as file ${files[0]!.id}]`,
        'Resource test://notes/otters.txt:\nNotes on otters.',
        `[File report.pdf (application/pdf), stored in this chat as file ${files[1]!.id}]`,
      ].join('\n'),
    );
    // The model got the text (no base64), and quoted it.
    const toolMessage = t.demo.requests.at(-1)!.messages.find((m) => m.role === 'tool')!;
    expect(toolMessage.content).toBe(text);
    expect(partsText(assistant.parts)).toContain('Resource test://notes/otters.txt:');

    // They are files of the conversation: newTask lists them, and a sub-agent can be given one.
    const delegated = await t.request(`${ws}/chats/${c.id}/messages`, { json: { text: `/delegate Viewer: describe it [files: ${files[0]!.id}]` } });
    const [given] = (await json(delegated)).messages.at(-1).parts.filter((p: StoredPart) => p.type === 'tool-newTask');
    expect(given.output).toMatchObject({ status: 'success' });
    expect(given.output.result).toContain('I received 1 file:\n- image 1: image/png, 70 bytes');

    // The files are the chat's: served to its owner, 404 to another member, gone with the chat.
    const image = await t.request(files[0]!.url);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).toString('base64')).toBe(SNAPSHOT_PNG);
    expect(Buffer.from(await (await t.request(files[1]!.url)).arrayBuffer()).toString('base64')).toBe(SNAPSHOT_PDF);
    expect((await t.request(files[0]!.url, { headers: { cookie: member.cookie } })).status).toBe(404);
    expect((await t.handle.db.select().from(file).where(eq(file.chatId, c.id))).length).toBe(2);
    expect((await t.request(`${ws}/chats/${c.id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    expect(await t.handle.db.select().from(file).where(eq(file.chatId, c.id))).toEqual([]);
  });
});
