// npm run owner:password: sets the owner's password (stored only as a hash) and signs every
// session out. The password is typed at a prompt that does not echo it (twice), or piped in on
// standard input (its first line); never given as an argument, where `ps` and the shell's
// history would keep it. `-- --generate` makes a random one and prints it once instead.
// Uses the same configuration as the server (DATABASE_URL or DATA_DIR); stop an embedded
// server first.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { templatePath } from "../database/pglite-template.mjs";

const MIN_LENGTH = 8;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const TEXT = {
  argument:
    "Do not put the password on the command line: `ps` and your shell's history keep it.\n" +
    "Run `npm run owner:password` and type it at the prompt, or pipe it in:\n" +
    "  printf '%s\\n' \"$PASSWORD\" | npm run owner:password\n" +
    "(`npm run owner:password -- --generate` makes a random one.)",
  short: `The password needs at least ${MIN_LENGTH} characters.`,
  empty: "No password on standard input: pipe one line in, or run this in a terminal.",
  mismatch: "The two passwords differ. Nothing was changed.",
  cancelled: "Cancelled. Nothing was changed.",
};

/** A refusal the owner can act on: printed alone, exit status 1, nothing changed. */
class Refusal extends Error {}
function fail(message) {
  throw new Refusal(message);
}

/** One line typed at the terminal, not echoed (raw mode: the terminal shows nothing typed). */
function ask(prompt) {
  return new Promise((resolve) => {
    process.stderr.write(prompt);
    const input = process.stdin;
    input.setRawMode(true);
    input.resume();
    input.setEncoding("utf8");
    let typed = "";
    const done = (value) => {
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write("\n");
      resolve(value);
    };
    function onData(chunk) {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") return done(typed);
        if (char === "\u0003" || char === "\u0004") return done(null); // Ctrl+C, Ctrl+D
        if (char === "\u007f" || char === "\b") typed = typed.slice(0, -1);
        else if (char >= " ") typed += char;
      }
    }
    input.on("data", onData);
  });
}

/** The first line of standard input, without its line ending. */
async function firstLine() {
  let text = "";
  for await (const chunk of process.stdin) {
    text += chunk;
    if (text.includes("\n")) break;
  }
  return text.split(/\r?\n/)[0];
}

async function readPassword() {
  if (!process.stdin.isTTY) {
    const line = await firstLine();
    if (!line) fail(TEXT.empty);
    return line;
  }
  const first = await ask("New owner password: ");
  if (first === null) fail(TEXT.cancelled);
  if (first.length < MIN_LENGTH) fail(TEXT.short);
  const second = await ask("Repeat it: ");
  if (second === null) fail(TEXT.cancelled);
  if (second !== first) fail(TEXT.mismatch);
  return first;
}

const args = process.argv.slice(2);
const generate = args.includes("--generate");
if (args.some((arg) => arg !== "--generate")) {
  console.error(TEXT.argument);
  process.exit(1);
}

const { openDatabase, parseEnv, setOwnerPassword, takeDataDirLock, releaseDataDirLock } =
  await import(path.join(root, "build/server/index.js"));

const env = parseEnv();
const dataDir = path.resolve(root, env.dataDir);
// The embedded database's lock first: nobody types a password only to hear the server has it.
if (!env.databaseUrl) takeDataDirLock(dataDir);
try {
  const password = generate ? randomBytes(18).toString("base64url") : await readPassword();
  if (password.length < MIN_LENGTH) fail(TEXT.short);
  const database = await openDatabase({
    databaseUrl: env.databaseUrl,
    dataDir,
    template: templatePath(path.join(root, "build")),
  });
  try {
    await database.migrate(path.join(root, "database/migrations"));
    await setOwnerPassword(database.db, password);
  } finally {
    await database.close();
  }
  console.log(
    generate
      ? `New owner password (shown once): ${password}`
      : "The owner password is set. Every session was signed out.",
  );
  if (env.ownerPassword) {
    console.log("Note: OWNER_PASSWORD is set, and the server applies it again when it starts.");
  }
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  if (!env.databaseUrl) releaseDataDirLock(dataDir);
}
