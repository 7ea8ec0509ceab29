// BENCH_CPU_PROFILE=<dir>: Baton's processes (and the peer's) run with `--cpu-prof`; afterwards the samples
// taken during one phase (lined up on the machine's monotonic clock, which V8's profiler
// and process.hrtime share) are summed by owner (package, Node internals, GC) and by function.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A phase on the monotonic clock, in µs (the unit of V8's profile timestamps). */
export interface Window {
  name: string;
  startUs: number;
  endUs: number;
}

export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

function owner(url: string): string {
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('wasm://')) return "WebAssembly (PGlite's Postgres)";
  if (url.startsWith('node:internal/webstreams')) return 'node: web streams';
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/').slice(0, 2).join('/')}`;
  const local = /\/(apps|packages)\/([^/]+)\/(src|bench)\//.exec(url);
  return local ? `${local[2]}/${local[3]}` : url.slice(0, 60);
}

const shortUrl = (url: string) => url.replace(/^.*node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, '').replace(/^.*\/(apps|packages)\//, '$1/');

/** The main thread's profile in `dir` (`CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`; tsx's loader is thread 1). */
export async function latestProfile(dir: string): Promise<string | undefined> {
  const files = (await readdir(dir)).filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f)).sort();
  return files.length ? join(dir, files.at(-1)!) : undefined;
}

/** Prints self time by owner and the top functions, for the samples inside `window`. */
export async function printProfileWindow(file: string, window: Window, whose: string, topFunctions = 25): Promise<void> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (t < window.startUs || t > window.endUs) return;
    total += dt;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const who = url ? owner(url) : `(V8) ${functionName || '(anonymous)'}`;
    byOwner.set(who, (byOwner.get(who) ?? 0) + dt);
    const fn = url ? `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}` : `(V8) ${functionName}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + dt);
  });
  const wallMs = (window.endUs - window.startUs) / 1000;
  console.log(
    `\nCPU profile of ${whose} during "${window.name}" (${file}, monotonic µs ${window.startUs}–${window.endUs}): ${(total / 1000).toFixed(0)} ms sampled over ${wallMs.toFixed(0)} ms. Self time by owner:`,
  );
  const line = (t: number, label: string) => console.log(`  ${(t / 1000).toFixed(0).padStart(7)} ms ${((100 * t) / total).toFixed(1).padStart(5)}%  ${label}`);
  for (const [key, t] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 20)) line(t, key);
  console.log(`  top ${topFunctions} functions by self time:`);
  for (const [key, t] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, topFunctions)) line(t, key);
}
