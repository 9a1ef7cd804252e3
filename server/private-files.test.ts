import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { makePrivate } from "./private-files";

const mode = (file: string) => statSync(file).mode & 0o777;

describe("private files", () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  it("makes a folder 0700 and every file under it 0600, nested ones too, and creates a missing one", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "private-"));
    roots.push(root);
    const data = path.join(root, "data");
    mkdirSync(path.join(data, "base", "1"), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(data, "PG_VERSION"), "18", { mode: 0o666 });
    writeFileSync(path.join(data, "base", "1", "1259"), "x", { mode: 0o644 });
    const outside = path.join(root, "outside.txt");
    writeFileSync(outside, "not ours", { mode: 0o644 });
    symlinkSync(outside, path.join(data, "link"));
    makePrivate(data);
    expect(mode(data)).toBe(0o700);
    expect(mode(path.join(data, "base"))).toBe(0o700);
    expect(mode(path.join(data, "base", "1"))).toBe(0o700);
    expect(mode(path.join(data, "PG_VERSION"))).toBe(0o600);
    expect(mode(path.join(data, "base", "1", "1259"))).toBe(0o600);
    expect(mode(outside)).toBe(0o644);
    const missing = path.join(root, "backups");
    makePrivate(missing);
    expect(mode(missing)).toBe(0o700);
  });
});
