import { readFileSync } from 'node:fs';

/*
 * CPU time of the machine against the benchmark's own processes (Linux /proc), so that a run disturbed by other
 * work on the machine says so. Elsewhere every reading is null and nothing is reported.
 */

const TICKS_PER_SECOND = 100;

/** Seconds of user + system time spent by the whole machine (interrupts excluded). */
function machineSeconds(): number | null {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0] = cpu;
    return (user + nice + system) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Seconds of user + system time of process `pid` (all its threads), or null when it cannot be read. */
function processSeconds(pid: number): number | null {
  try {
    // The command name may hold spaces: fields are counted after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

export interface CpuUse {
  /** Average cores used over the window by each of the watched processes, in the order given. */
  cores: number[];
  /** Average cores used by everything else on the machine. */
  otherCores: number;
}

export interface CpuWindow {
  stop(): CpuUse | null;
}

/**
 * Starts measuring CPU use while `pids` (the load generator and the servers) run.
 * @example const window = measureCpu([process.pid, server.pid]); …; window.stop() // { cores: [0.6, 1.0], otherCores: 0.02 }
 */
export function measureCpu(pids: number[]): CpuWindow {
  const started = performance.now();
  const machine = machineSeconds();
  const own = pids.map(processSeconds);
  return {
    stop() {
      const seconds = (performance.now() - started) / 1000;
      const machineNow = machineSeconds();
      if (machine === null || machineNow === null || seconds <= 0) return null;
      const cores: number[] = [];
      for (const [index, pid] of pids.entries()) {
        const before = own[index];
        const after = processSeconds(pid);
        if (before === null || before === undefined || after === null) return null;
        cores.push((after - before) / seconds);
      }
      const ownCores = cores.reduce((total, value) => total + value, 0);
      return { cores, otherCores: Math.max(0, (machineNow - machine) / seconds - ownCores) };
    },
  };
}
