export * from './common';
export * from './health';
export * from './workspaces';
export * from './agents';
export * from './providers';
export * from './chats';
