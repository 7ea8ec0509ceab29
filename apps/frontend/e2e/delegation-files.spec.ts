import { startTestMcpServer } from '@baton/mcp-test-server';
import { mcpToolId } from '@baton/schemas';
import { expect, test } from '@playwright/test';
import { api, block, getChat, lastAnswer, subChats } from './delegation-helpers';
import { createAgentViaApi, findAgentByName, shots, unique, WORKSPACE } from './helpers';

/*
 * Issue 20, sub-agents: a message's file passed on with `/delegate … [files]`. The message is
 * sent through the API (the composer's attach button is built apart); the page then runs the
 * delegation as it runs any: the block lists the file, the sub-chat starts with it, the
 * Researcher says what it received, and the Assistant continues with that.
 */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

test('a /delegate line with [files] gives the Researcher the message’s PDF, and the block lists it', async ({ page, request }) => {
  const upload = await request.post(`${api}/files`, { multipart: { file: { name: 'report.pdf', mimeType: 'application/pdf', buffer: PDF } } });
  expect(upload.status()).toBe(201);
  const pdf = (await upload.json()) as { id: string; url: string };

  const assistant = await findAgentByName(request, 'Assistant');
  const chatId = `chat_e2e_files_${Date.now().toString(36)}`;
  const sent = await request.post(`${api}/chat`, {
    data: {
      id: chatId,
      agentId: assistant.id,
      message: {
        id: `${chatId}_m1`,
        role: 'user',
        parts: [
          { type: 'text', text: '/delegate Researcher: summarise the report [files]' },
          { type: 'file', mediaType: 'application/pdf', filename: 'report.pdf', url: pdf.url },
        ],
      },
    },
  });
  expect(sent.ok(), await sent.text()).toBe(true);

  // The page runs the sub-chat (in the modal, which closes when it ends), and the parent continues with its result.
  await page.goto(`/w/${WORKSPACE}/chat/${encodeURIComponent(chatId)}`);
  await expect(lastAnswer(page)).toContainText('I received 1 file:', { timeout: 30_000 });
  const researcher = block(page, 'Researcher');
  await expect(researcher).toHaveAttribute('data-status', 'success');
  const link = researcher.getByRole('link', { name: 'report.pdf' });
  await expect(link).toBeVisible();
  expect(await link.getAttribute('href')).toBe(pdf.url);
  // The server stored the sub-chat's first message with the file.
  const [sub] = await subChats(request, chatId);
  const stored = await getChat(request, sub!.id);
  expect(stored.messages[0]!.parts).toContainEqual({ type: 'file', mediaType: 'application/pdf', filename: 'report.pdf', url: pdf.url });
  await link.scrollIntoViewIfNeeded();
  await shots(page, 'delegation-files');
});

test('an MCP tool’s image is stored in the chat and shown under the call', async ({ page, request }) => {
  const mcp = await startTestMcpServer({ mediaTools: true });
  let serverId: string | undefined;
  try {
    const server = await request.post(`${api}/mcp-servers`, { data: { name: unique('Camera'), url: mcp.url } });
    expect(server.status(), await server.text()).toBe(201);
    serverId = ((await server.json()) as { id: string }).id;
    const agent = await createAgentViaApi(request, { name: unique('Photographer'), toolIds: [mcpToolId(serverId, 'snapshot')] });
    const chatId = `chat_e2e_mcp_files_${Date.now().toString(36)}`;
    const sent = await request.post(`${api}/chat`, {
      data: {
        id: chatId,
        agentId: agent.id,
        message: { id: `${chatId}_m1`, role: 'user', parts: [{ type: 'text', text: '/tool snapshot {"subject":"otters"}' }] },
      },
    });
    expect(sent.ok(), await sent.text()).toBe(true);

    await page.goto(`/w/${WORKSPACE}/chat/${encodeURIComponent(chatId)}`);
    const files = page.getByRole('list', { name: 'Files from the tool' });
    const image = files.getByRole('img', { name: 'snapshot-image-1.png' });
    await expect(image).toBeVisible();
    // Loaded from the API (served inline to the chat's owner), not a broken image.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await expect(files.getByRole('link', { name: 'report.pdf' })).toBeVisible();
    await expect(lastAnswer(page)).toContainText('Resource test://notes/otters.txt:');
    await shots(page, 'mcp-tool-files');
  } finally {
    await mcp.close();
    // The test server lists lookup_fact too: left in the workspace, it makes that name ambiguous
    // for mcp-tools.spec, whose calls then cannot be told apart by server.
    if (serverId) await request.delete(`${api}/mcp-servers/${serverId}`);
  }
});
