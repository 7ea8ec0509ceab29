import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { UNATTACHED_FILE_TTL_MS } from '@baton/schemas';
import S3rver from 's3rver';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { file, fileObjectRemoval } from '../src/db/schema';
import { createOutbound } from '../src/outbound/guarded-fetch';
import { ORPHAN_OBJECT_GRACE_MS, sweepFiles } from '../src/services/file-sweep';
import { attachFilesToChat } from '../src/services/files';
import { createS3FileStore, type S3Settings } from '../src/storage/s3-store';
import { consoleDuring } from './support/console-capture';
import { FILES, upload } from './support/files';
import { json, useTestApp } from './support/test-app';
import { waitFor } from './support/wait';

// The same uploads with S3-compatible storage (BATON_S3_*), against a real S3-protocol server
// on a loopback port (s3rver, in process): the objects are really PUT, GET and DELETEd there.
const dir = mkdtempSync(join(tmpdir(), 'baton-s3-'));
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'baton-files', configs: [] }] });
let settings: S3Settings;
const operatorFetch = createOutbound({ allowPrivateAddresses: true }).operatorFetch;

const t = useTestApp({
  files: async () => {
    const { port } = await server.run();
    // s3rver's own account; it checks the key id (not SigV4 signatures).
    settings = {
      endpoint: `http://127.0.0.1:${port}`,
      bucket: 'baton-files',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      region: 'us-east-1',
      forcePathStyle: true,
    };
    return { store: createS3FileStore(settings, operatorFetch) };
  },
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const W = '/api/workspaces/default';
const owner = () => ({ workspaceId: 'default', userId: t.owner.userId });
const rowOf = async (id: string) => (await t.handle.db.select().from(file).where(eq(file.id, id)))[0];
/** What the bucket holds under a key, read with a client of its own. */
const objectStatus = async (key: string) => {
  try {
    await createS3FileStore(settings, operatorFetch).load(key, null);
    return 'present';
  } catch (err) {
    return (err as Error).message.includes('404') ? 'absent' : String(err);
  }
};

describe('files in S3-compatible storage', () => {
  it('uploads to the bucket, not the database, and serves the bytes back', async () => {
    const res = await upload(t, 'pixel.png', FILES.png, { type: 'image/png' });
    expect(res.status).toBe(201);
    const body = await json(res);
    const row = await rowOf(body.id);
    expect(row).toMatchObject({ storage: 's3', storageKey: `files/${body.id}`, bytes: null });
    expect(await objectStatus(row!.storageKey)).toBe('present');
    const served = await t.request(body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(FILES.png);
  });

  it('a refused upload puts nothing in the bucket', async () => {
    const before = await t.snapshot();
    expect((await upload(t, 'holiday.png', FILES.exe, { type: 'image/png' })).status).toBe(415);
    expect(await t.snapshot()).toBe(before);
  });

  it("a deleted chat's objects are removed by the next sweep (queued by the database, whatever deleted the rows)", async () => {
    const chatId = (await json(await t.request(`${W}/chats`, { json: { title: 'S3 chat' } }))).id;
    const a = await json(await upload(t, 'a.pdf', FILES.pdf));
    await attachFilesToChat(t.handle.db, owner(), chatId, [a.id]);
    expect((await t.request(`${W}/chats/${chatId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.request(a.url)).status).toBe(404);
    expect(await t.handle.db.select().from(fileObjectRemoval)).toEqual([{ storageKey: `files/${a.id}`, createdAt: expect.any(Date) }]);
    expect(await objectStatus(`files/${a.id}`)).toBe('present');
    const swept = await sweepFiles(t.handle.db, t.files.store);
    expect(swept.objects).toBe(1);
    expect(await objectStatus(`files/${a.id}`)).toBe('absent');
    expect(await t.handle.db.select().from(fileObjectRemoval)).toEqual([]);
  });

  it('an unattached upload and its object are gone after 24 hours', async () => {
    const loose = await json(await upload(t, 'loose.txt', Buffer.from('unused')));
    const swept = await sweepFiles(t.handle.db, t.files.store, new Date(new Date(loose.createdAt).getTime() + UNATTACHED_FILE_TTL_MS + 1_000));
    expect(swept.unattached).toBeGreaterThanOrEqual(1);
    expect(swept.objects).toBeGreaterThanOrEqual(1);
    expect((await t.request(loose.url)).status).toBe(404);
    expect(await objectStatus(`files/${loose.id}`)).toBe('absent');
  });

  const keysInBucket = async () => {
    const keys: string[] = [];
    for await (const page of createS3FileStore(settings, operatorFetch).list('files/')) keys.push(...page.map((o) => o.key));
    return new Set(keys);
  };
  const dataPart = (name: string, type: string, bytes: Uint8Array) => ({
    type: 'file',
    mediaType: type,
    filename: name,
    url: `data:${type};base64,${Buffer.from(bytes).toString('base64')}`,
  });
  const sendMessage = (chatId: string, messageId: string, parts: object[], agentId: string) =>
    t.request(`${W}/chat`, { json: { id: chatId, agentId, message: { id: messageId, role: 'user', parts } } });

  it("a message refused after its data: URLs were stored leaves no object in the bucket (its transaction's rows went, so do the objects)", async () => {
    const agentId = (await json(await t.request(`${W}/agents`, { json: { name: 'S3 reader' } }))).id;
    const before = await keysInBucket();
    // Refused while its parts are stored: the first is put in the bucket, the second (an executable) refused.
    const refusedPart = await sendMessage(
      'chat-s3-refused',
      'msg-s3-refused',
      [dataPart('pasted.txt', 'text/plain', Buffer.from('pasted')), dataPart('holiday.png', 'image/png', FILES.exe)],
      agentId,
    );
    expect(refusedPart.status).toBe(415);
    expect(await keysInBucket()).toEqual(before);

    // Refused after its parts were stored: a new message whose id another chat already holds
    // (an edit of an earlier message is no refusal since branches: it starts one).
    for (const [chatId, id] of [
      ['chat-s3-first', 'msg-s3-1'],
      ['chat-s3-second', 'msg-s3-2'],
    ]) {
      expect((await sendMessage(chatId!, id!, [{ type: 'text', text: `hello ${id}` }], agentId)).status).toBe(200);
      await waitFor('the answer to end', async () => ((await t.isAnswering(chatId!)) ? undefined : true));
    }
    const refusedId = await sendMessage(
      'chat-s3-second',
      'msg-s3-1',
      [{ type: 'text', text: 'taken id' }, dataPart('notes.txt', 'text/plain', Buffer.from('notes'))],
      agentId,
    );
    expect(refusedId.status).toBe(400);
    expect((await json(refusedId)).error.message).toMatch(/already exists/);
    expect(await keysInBucket()).toEqual(before);
  });

  it('the sweep removes objects no row names once they are an hour old (a process that stopped between the object and its row)', async () => {
    const kept = await json(await upload(t, 'kept.txt', Buffer.from('kept')));
    const orphan = 'files/file_never_stored';
    await t.files.store.save(orphan, Buffer.from('orphan'), 'text/plain');
    // Not while the transaction that writes its row might still be open…
    expect((await sweepFiles(t.handle.db, t.files.store)).orphans).toBe(0);
    expect(await objectStatus(orphan)).toBe('present');
    // …but once it is older than that; objects whose rows exist stay.
    const later = new Date(Date.now() + ORPHAN_OBJECT_GRACE_MS + 60_000);
    expect((await sweepFiles(t.handle.db, t.files.store, later)).orphans).toBe(1);
    expect(await objectStatus(orphan)).toBe('absent');
    expect(await objectStatus(`files/${kept.id}`)).toBe('present');
    expect((await t.request(kept.url)).status).toBe(200);
  });

  it('a bucket that refuses the upload: 503, and no row stored', async () => {
    const refusing = createS3FileStore({ ...settings, bucket: 'no-such-bucket' }, operatorFetch);
    await expect(refusing.save('files/x', FILES.png, 'image/png')).rejects.toThrow(/S3 PUT failed: HTTP 404/);
    const store = t.files.store;
    t.files.store = refusing;
    try {
      const before = await t.snapshot();
      let res: Response | undefined;
      const printed = await consoleDuring(async () => {
        res = await upload(t, 'pixel.png', FILES.png);
      });
      expect(res!.status).toBe(503);
      expect((await json(res!)).error).toEqual({ code: 'unavailable', message: expect.stringMatching(/file storage is not available/) });
      expect(await t.snapshot()).toBe(before);
      expect(printed).toMatch(/file storage: storing an upload failed: .*S3 PUT failed: HTTP 404/);
    } finally {
      vi.restoreAllMocks();
      t.files.store = store;
    }
  });
});
