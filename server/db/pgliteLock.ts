// One process at a time on an embedded PGlite directory. PGlite has no lock of its own, and two
// processes writing one directory corrupt it, so whoever opens it writes `<dir>.lock` holding its
// process id (created exclusively), and removes it on close. A lock whose process is gone (killed,
// crashed) is taken over. The operator CLI meets the same lock and says the server has the database.
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

/** Takes the directory's lock or throws DatabaseInUseError; answers the function that releases it. */
export function lockPgliteDir(dir: string): () => void {
  const file = pgliteLockFile(dir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; ; attempt += 1) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
    }
    const holder = Number.parseInt(readOrEmpty(file), 10);
    if (Number.isInteger(holder) && holder > 0 && processAlive(holder)) throw new DatabaseInUseError(path.resolve(dir), holder);
    // A stale lock (its process is gone, or the file is empty or unreadable): take it over.
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
