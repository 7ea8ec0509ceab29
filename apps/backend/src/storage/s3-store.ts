import { AwsClient } from 'aws4fetch';
import type { FileStore, StoredObject } from './file-store';

export interface S3Settings {
  /** `https://s3.<region>.amazonaws.com` unless set (MinIO, R2, Garage, Ceph…: their URL). */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (most self-hosted servers need it). */
  forcePathStyle: boolean;
}

/** An S3 request that failed; its text names the operation and status, never a key or signature. */
export class S3Error extends Error {
  constructor(operation: string, status: number) {
    super(`S3 ${operation} failed: HTTP ${status}`);
    this.name = 'S3Error';
  }
}

const TIMEOUT_MS = 60_000;

/**
 * S3-compatible object storage through aws4fetch (SigV4 signing only, no dependencies): the
 * signed request goes out through the fetch given — the operator's guarded fetch, so the
 * same address rules apply as for every other configured URL. Four operations: PUT, GET
 * and DELETE of one object, and ListObjectsV2 of a prefix (the sweep's).
 */
export function createS3FileStore(settings: S3Settings, fetchFn: typeof fetch): FileStore {
  const signer = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    region: settings.region,
    service: 's3',
  });
  const base = new URL(settings.endpoint);
  const objectUrl = (key: string, query?: URLSearchParams) => {
    const path = key.split('/').map(encodeURIComponent).join('/');
    const url = new URL(base);
    if (query) url.search = query.toString();
    // An empty key is the bucket itself (a listing): `/bucket` path-style, `/` virtual-hosted.
    if (settings.forcePathStyle) url.pathname = `${base.pathname.replace(/\/$/, '')}/${encodeURIComponent(settings.bucket)}${key ? `/${path}` : ''}`;
    else {
      url.hostname = `${settings.bucket}.${base.hostname}`;
      url.pathname = `${base.pathname.replace(/\/$/, '')}/${path}`;
    }
    return url.toString();
  };
  const send = async (method: string, key: string, init: { body?: Uint8Array; headers?: Record<string, string>; query?: URLSearchParams } = {}) => {
    const url = objectUrl(key, init.query);
    // Signed here, sent through fetchFn: the guarded fetch takes a URL and an init, not a Request.
    const signed = await signer.sign(url, { method, headers: init.headers, body: init.body as BodyInit | undefined });
    return fetchFn(url, { method, headers: signed.headers, body: init.body as BodyInit | undefined, signal: AbortSignal.timeout(TIMEOUT_MS) });
  };
  return {
    kind: 's3',
    async save(key, bytes, mediaType) {
      const res = await send('PUT', key, { body: bytes, headers: { 'content-type': mediaType } });
      await res.body?.cancel().catch(() => {});
      if (!res.ok) throw new S3Error('PUT', res.status);
      return null;
    },
    async load(key) {
      const res = await send('GET', key);
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw new S3Error('GET', res.status);
      }
      return new Uint8Array(await res.arrayBuffer());
    },
    async remove(key) {
      const res = await send('DELETE', key);
      await res.body?.cancel().catch(() => {});
      // S3 answers 204 for a missing key too; some servers say 404.
      if (!res.ok && res.status !== 404) throw new S3Error('DELETE', res.status);
    },
    async *list(prefix) {
      let token: string | undefined;
      do {
        const query = new URLSearchParams({ 'list-type': '2', prefix, 'max-keys': '1000' });
        if (token) query.set('continuation-token', token);
        // The bucket itself: an empty key.
        const res = await send('GET', '', { query });
        if (!res.ok) {
          await res.body?.cancel().catch(() => {});
          throw new S3Error('LIST', res.status);
        }
        const page = parseListPage(await res.text());
        yield page.objects;
        token = page.nextToken;
      } while (token);
    },
  };
}

const xmlText = (s: string) => s.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!);

/** The keys and times of a ListObjectsV2 answer (its XML is flat: a regular expression per element does). */
export function parseListPage(xml: string): { objects: StoredObject[]; nextToken?: string } {
  const objects: StoredObject[] = [];
  for (const [, contents] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
    const key = /<Key>([\s\S]*?)<\/Key>/.exec(contents!)?.[1];
    const modified = /<LastModified>([^<]*)<\/LastModified>/.exec(contents!)?.[1];
    if (key !== undefined && modified) objects.push({ key: xmlText(key), lastModified: new Date(modified) });
  }
  const truncated = /<IsTruncated>true<\/IsTruncated>/.test(xml);
  const token = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1];
  return { objects, nextToken: truncated && token ? xmlText(token) : undefined };
}
