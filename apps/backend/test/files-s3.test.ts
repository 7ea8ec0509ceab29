import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { UNATTACHED_FILE_TTL_MS } from '@baton/schemas';
import S3rver from 's3rver';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { file, fileObjectRemoval } from '../src/db/schema';
import { createOutbound } from '../src/outbound/guarded-fetch';
import { sweepFiles } from '../src/services/file-sweep';
import { attachFilesToChat } from '../src/services/files';
import { createS3FileStore, type S3Settings } from '../src/storage/s3-store';
import { consoleDuring } from './support/console-capture';
import { FILES, upload } from './support/files';
import { json, useTestApp } from './support/test-app';

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
