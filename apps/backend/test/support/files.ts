import type { TestApp } from './test-app';

/** Small real files of each kind the upload sniffs (their signatures are what file-type reads). */
export const FILES = {
  png: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
  jpeg: Buffer.from(
    'ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffd9',
    'hex',
  ),
  gif: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  webp: Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'),
  pdf: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  /** A Windows executable's first bytes (DOS header, then a PE header): what a renamed `.exe` is. */
  exe: Buffer.concat([
    Buffer.from('4d5a90000300000004000000ffff0000b800000000000000400000000000000000000000000000000000000000000000000000000000000000000000800000', 'hex'),
    Buffer.from('PE\0\0'),
    Buffer.alloc(64),
  ]),
  svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><script>alert(1)</script></svg>'),
  html: Buffer.from('<!doctype html><script>fetch("/api/me").then(r => r.text()).then(alert)</script>'),
};

export const filesPath = (workspaceId = 'default') => `/api/workspaces/${workspaceId}/files`;

export function fileForm(name: string, bytes: Uint8Array, type = 'application/octet-stream', field = 'file'): FormData {
  const form = new FormData();
  form.append(field, new File([bytes as Uint8Array<ArrayBuffer>], name, { type }));
  return form;
}

/** `POST …/files` in-process, as the owner unless `headers` say otherwise. */
export function upload(t: TestApp, name: string, bytes: Uint8Array, opts: { type?: string; headers?: Record<string, string>; workspaceId?: string } = {}) {
  return t.request(filesPath(opts.workspaceId), { method: 'POST', body: fileForm(name, bytes, opts.type), headers: opts.headers });
}
