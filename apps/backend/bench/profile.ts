// Optional: BENCH_CPU_PROFILE=<file.cpuprofile> records Baton's thread (where Baton, its
// database driver and PGlite run) during the concurrency phase and prints self time by package.
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function owner(url: string): string {
  if (!url) return '(V8: GC, native calls, idle)';
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('wasm://')) return 'WebAssembly (PGlite\'s Postgres)';
  if (url.startsWith('node:internal/webstreams')) return 'node: web streams';
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/').slice(0, 2).join('/')}`;
  const local = /\/(apps|packages)\/([^/]+)\/(src|bench)\//.exec(url);
  return local ? `${local[2]}/${local[3]}` : url.slice(0, 60);
}

export async function startCpuProfile(): Promise<() => Promise<void>> {
  const file = process.env.BENCH_CPU_PROFILE;
  if (!file) return async () => {};
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    session.disconnect();
    await writeFile(file, JSON.stringify(profile));
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    // Leave out the profiler's own work (stopping it runs under node:inspector).
    const isProfiler = (id: number): boolean => {
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        if (byId.get(at)!.callFrame.url === 'node:inspector') return true;
      }
      return false;
    };
    const self = new Map<string, number>();
    let total = 0;
    profile.samples.forEach((id, i) => {
      if (isProfiler(id)) return;
      const dt = profile.timeDeltas[i] ?? 0;
      total += dt;
      const node = byId.get(id)!;
      const key = node.callFrame.url ? owner(node.callFrame.url) : `(V8) ${node.callFrame.functionName}`;
      self.set(key, (self.get(key) ?? 0) + dt);
    });
    console.log(`\nCPU profile of Baton's thread during the concurrency phase → ${file}; ${(total / 1000).toFixed(0)} ms sampled, self time by owner:`);
    for (const [key, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
      console.log(`  ${(t / 1000).toFixed(0).padStart(6)} ms ${((100 * t) / total).toFixed(1).padStart(5)}%  ${key}`);
    }
  };
}
