import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statfsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A small filesystem of its own (tmpfs), to fill the disk for real: only root may mount one.
 * Tests that need it are defined only when this process is root, and say why otherwise; under
 * CI (which runs as root) a missing root fails instead (`rootOrFail`).
 */
export const IS_ROOT = process.getuid?.() === 0;

/** Why tmpfs tests cannot run here, or null when they can; throws under CI. */
export function tmpfsUnavailable(what: string): string | null {
  if (IS_ROOT) return null;
  const reason = `${what} mounts a small tmpfs to fill a disk for real, which needs root`;
  if (process.env.CI === "true") {
    throw new Error(`${reason}, and CI must run every test: run the tests as root.`);
  }
  console.log(`Skipped: ${reason}; this process is not root.`);
  return reason;
}

export type Tmpfs = {
  dir: string;
  /** Bytes free on it now. */
  free(): number;
  /** Changes its size (shrinking below what it holds fails). */
  resize(bytes: number): void;
  unmount(): void;
};

const KB = 1024;

export function mountTmpfs(bytes: number): Tmpfs {
  const dir = mkdtempSync(path.join(os.tmpdir(), "portfolio-tmpfs-"));
  mkdirSync(dir, { recursive: true });
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${Math.ceil(bytes / KB)}k`, "tmpfs", dir]);
  return {
    dir,
    free: () => {
      const stats = statfsSync(dir);
      return stats.bavail * stats.bsize;
    },
    resize: (size) =>
      execFileSync("mount", ["-o", `remount,size=${Math.ceil(size / KB)}k`, dir], {
        stdio: "pipe",
      }),
    unmount: () => {
      execFileSync("umount", ["-l", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
