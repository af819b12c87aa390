import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Who holds an embedded database (docs/decisions/037-backups-and-admin-accounts.md). PGlite allows one owner of
 * a data directory and does not refuse a second one: two processes writing it corrupt it. Whoever opens DATA_DIR
 * through db/client.ts writes `DATA_DIR/pglite.lock` (its pid, host and start) and removes it on close; the
 * backup and the restore of an embedded database refuse while a live process holds it. PGlite's own
 * postmaster.pid says nothing about who holds it (its pid is always -42) and stays behind after a crash.
 */
export interface DataDirHolder {
  pid: number;
  host: string;
  since: string;
}

export const dataDirLockFile = (dataDir: string) => path.join(path.resolve(dataDir), 'pglite.lock');

/** Lock files this process wrote and still holds (a stale lock of an earlier process with the same pid is not ours). */
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The live holder of this data directory, if any. A lock left by a process that is gone (a crash, kill -9) is
 * stale and ignored; one written on another host (a shared volume) cannot be checked and counts as held.
 */
export function dataDirHolder(dataDir: string): DataDirHolder | undefined {
  let holder: DataDirHolder;
  try {
    holder = JSON.parse(fs.readFileSync(dataDirLockFile(dataDir), 'utf8')) as DataDirHolder;
  } catch {
    return undefined;
  }
  if (!Number.isSafeInteger(holder.pid)) return undefined;
  if (holder.pid === process.pid) return heldHere.has(dataDirLockFile(dataDir)) ? holder : undefined;
  if (holder.host === os.hostname() && !alive(holder.pid)) return undefined;
  return holder;
}

/** Marks this process as the holder of the data directory; the returned function releases it (if still ours). */
export function holdDataDir(dataDir: string): () => void {
  const file = dataDirLockFile(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const mine: DataDirHolder = { pid: process.pid, host: os.hostname(), since: new Date().toISOString() };
  fs.writeFileSync(file, `${JSON.stringify(mine)}\n`, { mode: 0o600 });
  heldHere.add(file);
  return () => {
    heldHere.delete(file);
    try {
      const current = JSON.parse(fs.readFileSync(file, 'utf8')) as DataDirHolder;
      if (current.pid === mine.pid && current.since === mine.since) fs.rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
}
