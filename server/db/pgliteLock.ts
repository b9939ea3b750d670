// One process at a time on an embedded PGlite directory. PGlite has no lock of its own, and two
// processes writing one directory corrupt it, so whoever opens it writes `<dir>.lock` holding its
// process id and start time (created exclusively), and removes it on close. A lock whose process is
// gone (killed, crashed) or whose pid now names another process is taken over. The operator CLI meets the same lock and says the server has the database.
import fs from 'node:fs';
import path from 'node:path';

export class DatabaseInUseError extends Error {
  constructor(readonly dir: string, readonly pid: number) {
    super(`The embedded database in ${dir} is in use by another process (pid ${pid}).`);
    this.name = 'DatabaseInUseError';
  }
}

export const pgliteLockFile = (dir: string) => `${path.resolve(dir)}.lock`;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When a process started (clock ticks since boot, Linux /proc), to tell a reused pid from the holder. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime), counted after the command name, which may hold spaces and ends with ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * Whether the lock's holder still runs. A container restarted on the same volume often gives the
 * server the pid its previous life had, so a pid alone would lock the server out of its own
 * database: the holder's start time, recorded beside its pid, must match as well.
 */
function holderAlive(content: string): { alive: boolean; pid: number } {
  const [pidText, startTime] = content.trim().split(/\s+/);
  const pid = Number.parseInt(pidText ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return { alive: false, pid };
  const current = startTimeOf(pid);
  if (startTime && current) return { alive: startTime === current, pid };
  return { alive: true, pid };
}

/** Takes the directory's lock or throws DatabaseInUseError; answers the function that releases it. */
export function lockPgliteDir(dir: string): () => void {
  const file = pgliteLockFile(dir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; ; attempt += 1) {
    try {
      fs.writeFileSync(file, `${process.pid} ${startTimeOf(process.pid) ?? ''}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
    }
    const holder = holderAlive(readOrEmpty(file));
    if (holder.alive) throw new DatabaseInUseError(path.resolve(dir), holder.pid);
    // A stale lock (its process is gone or its pid reused, or the file is empty): take it over.
    fs.rmSync(file, { force: true });
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (Number.parseInt(readOrEmpty(file), 10) === process.pid) fs.rmSync(file, { force: true });
  };
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
