// What else the machine was doing: figures on a shared 2-core box mean little without it.
import { cpus, loadavg } from 'node:os';

/** The 1-minute load average, as printed next to every figure. */
export const load1 = (): string => loadavg()[0]!.toFixed(2);

const busyIdle = () => {
  let busy = 0;
  let idle = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    busy += times.user + times.nice + times.sys + times.irq;
  }
  return { busy, idle };
};

/** Starts measuring; the returned function gives the share of all cores that was busy since (0–1). */
export function machineBusy(): () => number {
  const a = busyIdle();
  return () => {
    const b = busyIdle();
    const busy = b.busy - a.busy;
    const total = busy + (b.idle - a.idle);
    return total > 0 ? busy / total : NaN;
  };
}
