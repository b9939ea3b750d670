// CPU time from /proc (Linux; 100 clock ticks a second), for the benchmarks that say where a
// budget's floor is: a wall time on two cores cannot go below the CPU its work needs, divided by
// two, so the parts print the CPU of the database and of this process beside their figures.
import fs from 'node:fs';

const msPerTick = 1000 / 100;

/**
 * User and system CPU of one process (ms), or 0 when it is gone; with `reaped`, also that of its
 * children that have exited and been waited for (a PostgreSQL backend's, once it disconnects,
 * moves to the postmaster's count).
 */
function processCpuMs(pid: number, reaped = false): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return (reaped ? own + Number(fields[13]) + Number(fields[14]) : own) * msPerTick;
  } catch {
    return 0;
  }
}

/** The CPU time in ms a process and its children (and theirs) have used. */
export function processTreeCpuMs(pid: number): number {
  let total = processCpuMs(pid);
  try {
    for (const child of fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean)) {
      total += processTreeCpuMs(Number(child));
    }
  } catch {
    // Gone meanwhile.
  }
  return total;
}

/**
 * The CPU in ms every PostgreSQL process on this machine has used (postmaster, backends, WAL
 * writer, checkpointer..., and the backends that have exited since), or undefined when the database is not on this machine (the URL's host
 * is not loopback) or /proc names none: the difference across a piece of work is its database CPU.
 */
function postgresCpuMs(databaseUrl: string): number | undefined {
  const host = new URL(databaseUrl).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]', ''].includes(host)) return undefined;
  let total = 0;
  let found = false;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    found = true;
    total += processCpuMs(Number(entry), true);
  }
  return found ? total : undefined;
}

export interface CpuSpent {
  /** This process's user and system CPU (ms). */
  processMs: number;
  /** PostgreSQL's (ms), undefined when it is not on this machine. */
  databaseMs: number | undefined;
}

/** Starts counting this process's CPU and the database's; the answer stops and reads both. */
export function cpuMeter(databaseUrl: string): () => CpuSpent {
  const databaseBefore = postgresCpuMs(databaseUrl);
  const processBefore = process.cpuUsage();
  return () => {
    const spent = process.cpuUsage(processBefore);
    const databaseAfter = postgresCpuMs(databaseUrl);
    return {
      processMs: (spent.user + spent.system) / 1000,
      databaseMs: databaseBefore === undefined || databaseAfter === undefined ? undefined : databaseAfter - databaseBefore,
    };
  };
}
