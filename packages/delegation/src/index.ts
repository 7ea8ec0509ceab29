// The delegation rules both flows share: the browser (client-side `newTask`) and the
// server (REST, nested delegation). Pure functions only: no database, no network.
export * from './batch';
export * from './budget';
export * from './files';
export * from './limiter';
export * from './outcome';
export * from './parts';
export * from './tree';
export * from './wording';
