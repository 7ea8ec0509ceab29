import { AwsClient } from 'aws4fetch';
import type { FileStore } from './file-store';

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
 * same address rules apply as for every other configured URL. Three operations: PUT, GET
 * and DELETE of one object.
 */
export function createS3FileStore(settings: S3Settings, fetchFn: typeof fetch): FileStore {
  const signer = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    region: settings.region,
    service: 's3',
  });
  const base = new URL(settings.endpoint);
  const objectUrl = (key: string) => {
    const path = key.split('/').map(encodeURIComponent).join('/');
    const url = new URL(base);
    if (settings.forcePathStyle) url.pathname = `${base.pathname.replace(/\/$/, '')}/${encodeURIComponent(settings.bucket)}/${path}`;
    else {
      url.hostname = `${settings.bucket}.${base.hostname}`;
      url.pathname = `${base.pathname.replace(/\/$/, '')}/${path}`;
    }
    return url.toString();
  };
  const send = async (method: string, key: string, init: { body?: Uint8Array; headers?: Record<string, string> } = {}) => {
    const url = objectUrl(key);
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
  };
}
