import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/*
 * Summarises V8 CPU profiles (`node --cpu-prof`, as `BENCH_PROFILE=<dir> pnpm bench:server` writes for the server):
 * the functions with the most self time, self time by package, and the inclusive time of chosen functions.
 * Usage: tsx bench/profile.ts <file.cpuprofile | dir> [top=30] [function names to total, comma-separated]
 * (the second profile of a run is tsx's module-loader thread, nearly idle).
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [target, topArg, namesArg] = process.argv.slice(2);
if (!target) {
  process.stderr.write('usage: tsx bench/profile.ts <file.cpuprofile | dir> [top] [fn1,fn2]\n');
  process.exit(2);
}
const files = statSync(target).isDirectory()
  ? readdirSync(target).filter((name) => name.endsWith('.cpuprofile')).map((name) => join(target, name))
  : [target];
const top = Number(topArg ?? 30);
const watched = (namesArg ?? '').split(',').filter(Boolean);

/** A short place for a script URL: the package (node_modules) or the path inside the repository. */
function place(url: string): string {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return url;
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const source = url.indexOf('/apps/');
  const contract = url.indexOf('/packages/');
  const at = source >= 0 ? source : contract;
  return at >= 0 ? url.slice(at + 1).replace(/^file:\/\//, '') : url;
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // Self time per node from the sample deltas (µs).
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, index) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  let total = 0;
  for (const time of selfTime.values()) total += time;
  let idle = 0;

  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const attributed = new Map<string, number>();
  for (const [id, time] of selfTime) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') idle += time;
    const key = `${functionName || '(anonymous)'}  ${place(url)}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + time);
    const where = functionName.startsWith('(') ? functionName : place(url).split('/').slice(0, 4).join('/');
    byPlace.set(where, (byPlace.get(where) ?? 0) + time);
    // Inclusive time of watched functions: count each sample once per stack that contains them.
    // Attributed: the sample goes to the innermost watched function on its stack, so these add up.
    const seen = new Set<string>();
    for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) {
      const name = byId.get(cursor)!.callFrame.functionName;
      if (watched.includes(name) && !seen.has(name)) {
        if (seen.size === 0) attributed.set(name, (attributed.get(name) ?? 0) + time);
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + time);
      }
    }
    if (seen.size === 0 && functionName !== '(idle)') attributed.set('(other)', (attributed.get('(other)') ?? 0) + time);
  }

  const busy = total - idle;
  const percent = (time: number) => `${((time / busy) * 100).toFixed(1).padStart(5)} %`;
  const out: string[] = [
    `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (percentages are of busy time)`,
    '',
    `top ${top} functions by self time:`,
  ];
  for (const [key, time] of [...byFunction].sort((a, b) => b[1] - a[1]).filter(([key]) => !key.startsWith('(idle)')).slice(0, top)) {
    out.push(`  ${percent(time)}  ${key}`);
  }
  out.push('', 'self time by package or source file:');
  for (const [key, time] of [...byPlace].sort((a, b) => b[1] - a[1]).filter(([key]) => key !== '(idle)').slice(0, top)) {
    out.push(`  ${percent(time)}  ${key}`);
  }
  if (watched.length > 0) {
    out.push('', 'inclusive time (synchronous stacks: time after an await counts under the resumed function):');
    for (const name of watched) out.push(`  ${percent(inclusive.get(name) ?? 0)}  ${name}`);
    out.push('', 'attributed to the innermost listed function on the stack (these add up to 100 %):');
    for (const [name, time] of [...attributed].sort((a, b) => b[1] - a[1])) out.push(`  ${percent(time)}  ${name}`);
  }
  process.stdout.write(`${out.join('\n')}\n\n`);
}
