/**
 * Where uploaded files' bytes are kept (services/files.ts decides everything else). Two
 * implementations: the database itself (the default: several replicas and one backup need
 * nothing more) and S3-compatible object storage (`BATON_S3_*`, s3-store.ts).
 */
export interface FileStore {
  /** What the file row's `storage` column says. */
  readonly kind: 'database' | 's3';
  /**
   * Keeps the bytes under `key`. Answers the bytes the row itself must hold (the database
   * store) or null (kept elsewhere).
   */
  save(key: string, bytes: Uint8Array, mediaType: string): Promise<Uint8Array | null>;
  /** The bytes of a stored file; `inRow` is the row's `bytes` column. */
  load(key: string, inRow: Uint8Array | null): Promise<Uint8Array>;
  /** Removes what `save` kept outside the row; removing a missing key is not an error. */
  remove(key: string): Promise<void>;
  /**
   * What `save` kept outside rows under `prefix`, a page at a time (for the sweep of objects
   * whose row never came to be: services/file-sweep.ts). The database store keeps nothing outside.
   */
  list(prefix: string): AsyncIterable<StoredObject[]>;
}

export interface StoredObject {
  key: string;
  lastModified: Date;
}

/** Bytes in the file row (a `bytea` column): they go with the row, cascades included. */
export const databaseFileStore: FileStore = {
  kind: 'database',
  save: async (_key, bytes) => bytes,
  load: async (key, inRow) => {
    if (!inRow) throw new Error(`file ${key} has no bytes in the database`);
    return inRow;
  },
  remove: async () => {},
  list: async function* () {},
};
