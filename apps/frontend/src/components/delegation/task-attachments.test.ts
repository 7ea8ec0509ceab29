import type { BatonUIMessage } from '@baton/schemas';
import { describe, expect, it } from 'vitest';
import { attachmentParts, taskAttachments } from './task-attachments';

const url = (id: string) => `/api/workspaces/w/files/${id}`;
const messages = [
  {
    id: 'u1',
    role: 'user',
    parts: [
      { type: 'text', text: 'read this' },
      { type: 'file', mediaType: 'application/pdf', filename: 'report.pdf', url: url('f1') },
    ],
  },
] as BatonUIMessage[];

describe('a delegation’s attachments', () => {
  it('are named from the parent’s messages, in the call’s order; an unknown one keeps its id and is not sent', () => {
    const files = taskAttachments('w', ['f9', 'f1', 'f1'], messages);
    expect(files).toEqual([
      { id: 'f9', name: 'f9', url: url('f9') },
      { id: 'f1', name: 'report.pdf', url: url('f1'), mediaType: 'application/pdf' },
    ]);
    expect(attachmentParts(files)).toEqual([{ type: 'file', mediaType: 'application/pdf', filename: 'report.pdf', url: url('f1') }]);
    expect(taskAttachments('w', undefined, messages)).toEqual([]);
  });
});
