import { describe, expect, it } from 'vitest';
import { invite, signUp } from './support/accounts';
import { json, useTestApp } from './support/test-app';

// Two hand-overs of one workspace sent at once (a double click, two tabs): one wins, the
// other is told the workspace changed hands — never a 500 from the one-owner index.
const t = useTestApp();

describe('handing a workspace over twice at once', () => {
  it('gives 200 and 409, and leaves exactly one owner', async () => {
    for (let round = 0; round < 3; round++) {
      const side = await json(await t.request('/api/workspaces', { json: { name: `Handover ${round}` } }));
      const [bob, carol] = await Promise.all(
        ['bob', 'carol'].map(async (name) =>
          signUp(t.anonymous, { email: `${name}${round}@baton.test`, inviteToken: await invite(t.anonymous, t.owner, side.id, 'admin') }),
        ),
      );
      const handOver = (to: string) => t.request(`/api/workspaces/${side.id}/members/${to}`, { method: 'PATCH', json: { role: 'owner' } });
      const results = await Promise.all([handOver(bob!.userId), handOver(carol!.userId)]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409]);
      const refused = await json(results.find((r) => r.status === 409)!);
      expect(refused.error).toMatchObject({ code: 'conflict', message: expect.stringMatching(/no longer the owner/) });
      const members = await json(await t.request(`/api/workspaces/${side.id}/members`));
      const roles = members.data.map((m: { role: string }) => m.role).sort();
      expect(roles).toEqual(['admin', 'admin', 'owner']);
      const winner = results.findIndex((r) => r.status === 200);
      expect(members.data.find((m: { role: string }) => m.role === 'owner').userId).toBe([bob, carol][winner]!.userId);
    }
  });
});
