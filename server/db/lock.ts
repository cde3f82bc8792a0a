import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One process runs the embedded PostgreSQL of a data directory (`npm start`, or a command while no
 * `npm start` runs): a second would find the first's server and stop it as a leftover. The lock
 * holds the owner's pid; a lock left by a dead process is taken over.
 */
export class DataDirLock {
  private constructor(readonly file: string) {}

  static acquire(dir: string): DataDirLock {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'server.lock');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(file, 'wx');
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        return new DataDirLock(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
        if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) {
          throw new Error(
            `The data directory ${dir} is in use by another process (pid ${pid}), probably another \`npm start\`. ` +
              'Stop it first, or give this one its own directory with DATA_DIR=... (or use PostgreSQL with DATABASE_URL).',
          );
        }
        rmSync(file, { force: true });
      }
    }
    throw new Error(`Could not lock the data directory ${dir}`);
  }

  release(): void {
    rmSync(this.file, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
