/**
 * The editor's saving, autosave and Save Post alike, as one small state machine outside React
 * (so no timer ever reads a stale draft): what changed since the last save, one request at a
 * time, retries with backoff while the server cannot be reached, the browser's copy meanwhile,
 * and the revision every save starts from, so a save made elsewhere is never overwritten.
 */
import type { EditConflict } from "../revisions/conflict";
import { EDITOR_WINDOW_HEADER } from "../revisions/rules";
import { AUTOSAVE } from "./autosave-rules";
import { editorWindowId } from "./editor-window";
import { dropLocalCopy, writeLocalCopy } from "./local-copy";
import { publishChoiceOf, type PostDraft } from "./post-draft";

export type SaveState =
  | { kind: "idle" }
  | { kind: "saving" }
  | { kind: "saved"; at: string }
  | { kind: "offline" }
  | { kind: "retrying" }
  | { kind: "refused"; reason: string }
  | { kind: "conflict"; conflict: EditConflict; mine: PostDraft; manual: boolean };

export type SaverSnapshot = {
  state: SaveState;
  /** The post's id once it exists on the server. */
  postId: number | null;
  /** Whether the server holds changes visitors do not see yet (a published post's autosaves). */
  pending: boolean;
  /** The revision the next save starts from. */
  revision: number | null;
};

type SaverOptions = {
  postId: number | null;
  base: number | null;
  pending: boolean;
  /** Whether autosaves of this post wait as pending changes (it is published or scheduled). */
  public: boolean;
  read: () => PostDraft;
  /** The first autosave of a new post created it. */
  onCreated?: (id: number) => void;
};

/** What a save request answered. */
type Answer =
  | { kind: "ok"; body: Record<string, unknown> }
  | { kind: "conflict"; conflict: EditConflict }
  | { kind: "refused"; status: number; reason: string }
  | { kind: "server" }
  | { kind: "network" };

export type { Answer as SaveAnswer };

export class PostSaver {
  private snapshot: SaverSnapshot;
  private listeners = new Set<() => void>();
  private base: number | null;
  private version = 0;
  private savedVersion = 0;
  /** When the first change not yet sent was made: autosave waits at most maxWaitMs from it. */
  private dirtySince: number | null = null;
  /** When the save under way was sent: changes after it are the next save's. */
  private sentAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private localTimer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: Promise<void> | null = null;
  /** Autosave waits: a conflict is open, or Save Post is under way. */
  private held = false;
  private retries = 0;

  constructor(private readonly options: SaverOptions) {
    this.base = options.base;
    this.snapshot = {
      state: { kind: "idle" },
      postId: options.postId,
      pending: options.pending,
      revision: options.base,
    };
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  private set(changes: Partial<SaverSnapshot>) {
    this.snapshot = { ...this.snapshot, ...changes };
    for (const listener of this.listeners) listener();
  }

  /** The revision the next save starts from. */
  get baseRevision() {
    return this.base;
  }

  /** Whether something typed is not on the server yet. */
  get unsaved() {
    return this.version !== this.savedVersion;
  }

  /** Something was typed: keep a copy in the browser now, and autosave soon. */
  changed() {
    this.version++;
    this.dirtySince ??= Date.now();
    // "Saved at" no longer holds for what is on screen; the next save says it again.
    if (this.snapshot.state.kind === "saved") this.set({ state: { kind: "idle" } });
    clearTimeout(this.localTimer);
    this.localTimer = setTimeout(() => this.keepLocally(), AUTOSAVE.localCopyMs);
    this.schedule(AUTOSAVE.idleMs);
  }

  /**
   * Writes the browser's copy at once (the page is going away, or a save failed); false when
   * the browser refused it (storage full or disabled).
   */
  keepLocally(): boolean {
    clearTimeout(this.localTimer);
    if (!this.unsaved) return true;
    return writeLocalCopy({
      postId: this.snapshot.postId,
      base: this.base,
      savedAt: Date.now(),
      draft: this.options.read(),
    });
  }

  private schedule(idleMs: number) {
    clearTimeout(this.timer);
    const deadline = (this.dirtySince ?? Date.now()) + AUTOSAVE.maxWaitMs;
    const delay = Math.max(0, Math.min(idleMs, deadline - Date.now()));
    this.timer = setTimeout(() => void this.autosave(), delay);
  }

  /** Sends what changed since the last save, unless a save is under way or held. */
  async autosave(): Promise<void> {
    if (this.held || !this.unsaved) return;
    if (this.inFlight) return this.inFlight.then(() => this.autosave());
    const draft = this.options.read();
    if (this.snapshot.postId === null && isBlank(draft)) return;
    const sending = this.version;
    this.sentAt = Date.now();
    this.set({ state: { kind: "saving" } });
    const id = this.snapshot.postId ?? "new";
    this.inFlight = this.send(`/api/posts/${id}/autosave`, "POST", {
      ...autosaveBody(draft),
      baseRevision: this.base,
    }).then((answer) => this.afterAutosave(answer, sending, draft));
    await this.inFlight;
    this.inFlight = null;
  }

  private afterAutosave(answer: Answer, sending: number, draft: PostDraft) {
    switch (answer.kind) {
      case "ok": {
        const { id, revision, savedAt, applied } = answer.body as {
          id: number;
          revision: number;
          savedAt: string;
          applied: boolean;
        };
        this.retries = 0;
        this.accept(revision, sending);
        if (this.snapshot.postId === null) {
          dropLocalCopy(null);
          this.set({ postId: id });
          this.options.onCreated?.(id);
        }
        this.set({
          state: { kind: "saved", at: savedAt },
          pending: this.snapshot.pending || (!applied && this.options.public),
        });
        if (this.unsaved) this.schedule(AUTOSAVE.idleMs);
        return;
      }
      case "conflict":
        this.held = true;
        this.keepLocally();
        return this.set({
          state: { kind: "conflict", conflict: answer.conflict, mine: draft, manual: false },
        });
      case "refused":
        this.keepLocally();
        return this.set({ state: { kind: "refused", reason: answer.reason } });
      case "server":
      case "network": {
        // "Kept in this browser" only when it is.
        const kept = this.keepLocally();
        this.set({ state: { kind: answer.kind === "network" && kept ? "offline" : "retrying" } });
        this.retries++;
        return this.schedule(
          Math.min(AUTOSAVE.retryMaxMs, AUTOSAVE.retryFirstMs * 2 ** (this.retries - 1)),
        );
      }
    }
  }

  /** The server has `sending`'s changes as `revision`; the browser's copy goes when nothing is newer. */
  private accept(revision: number, sending: number) {
    this.base = revision;
    this.set({ revision });
    this.savedVersion = sending;
    // Changes typed while the save was under way are waiting since it was sent, not since the
    // first change it carried: else every answer a keystroke overtook would send again at once.
    this.dirtySince = this.unsaved ? this.sentAt : null;
    if (!this.unsaved) {
      clearTimeout(this.localTimer);
      dropLocalCopy(this.snapshot.postId);
    }
  }

  /** The connection came back: try now rather than at the next retry. */
  reconnected() {
    if (this.unsaved && !this.held) this.schedule(0);
  }

  /**
   * Save Post / Update Post: waits for an autosave under way, then sends the whole post with the
   * revision it started from. Autosave waits meanwhile.
   */
  async saveNow(body: object): Promise<Answer> {
    this.held = true;
    clearTimeout(this.timer);
    await this.inFlight;
    const sending = this.version;
    this.sentAt = Date.now();
    const draft = this.options.read();
    const id = this.snapshot.postId;
    const answer = await this.send(
      id === null ? "/api/posts" : `/api/posts/${id}`,
      id === null ? "POST" : "PUT",
      {
        ...body,
        baseRevision: this.base,
      },
    );
    if (answer.kind === "ok") {
      this.accept(answer.body.revision as number, sending);
      this.set({ pending: false, state: { kind: "saved", at: new Date().toISOString() } });
    } else if (answer.kind === "conflict") {
      this.keepLocally();
      this.set({
        state: { kind: "conflict", conflict: answer.conflict, mine: draft, manual: true },
      });
      return answer;
    } else {
      this.keepLocally();
    }
    this.held = false;
    // What the failed save carried is still to be saved: autosave takes it up again.
    if (answer.kind !== "ok" && this.unsaved) this.schedule(AUTOSAVE.idleMs);
    return answer;
  }

  /**
   * Keep mine: what this editor holds goes on top of the revision that came since, as a new
   * revision. An autosave is sent at once; "manual" says Save Post must be pressed again for
   * the caller (it owns the alerts).
   */
  keepMine(): "manual" | "auto" | null {
    const state = this.snapshot.state;
    if (state.kind !== "conflict") return null;
    this.base = state.conflict.revision;
    this.held = false;
    this.set({ state: { kind: "idle" }, revision: this.base });
    if (state.manual) return "manual";
    this.version++;
    void this.autosave();
    return "auto";
  }

  /**
   * A version from the History was restored as `revision`: the editor now holds it, as the
   * server does (as unpublished changes, when not applied to a published post).
   */
  restored(revision: number, applied: boolean) {
    clearTimeout(this.timer);
    clearTimeout(this.localTimer);
    this.base = revision;
    this.savedVersion = this.version;
    this.dirtySince = null;
    dropLocalCopy(this.snapshot.postId);
    this.set({
      revision,
      pending: this.snapshot.pending || (!applied && this.options.public),
      state: { kind: "saved", at: new Date().toISOString() },
    });
  }

  /** Take theirs: what this editor held is dropped (the page opens the post again). */
  takeTheirs() {
    this.held = true;
    this.savedVersion = this.version;
    clearTimeout(this.timer);
    clearTimeout(this.localTimer);
    dropLocalCopy(this.snapshot.postId);
  }

  /** Discard changes: the published version comes back as the newest revision. */
  async discard(): Promise<boolean> {
    if (this.snapshot.postId === null) return false;
    this.held = true;
    clearTimeout(this.timer);
    await this.inFlight;
    const answer = await this.send(`/api/posts/${this.snapshot.postId}/discard`, "POST", {
      baseRevision: this.base,
    });
    if (answer.kind === "ok") {
      this.takeTheirs();
      return true;
    }
    this.held = false;
    if (answer.kind === "conflict") {
      this.held = true;
      this.set({
        state: {
          kind: "conflict",
          conflict: answer.conflict,
          mine: this.options.read(),
          manual: false,
        },
      });
    }
    return false;
  }

  /** The owner is leaving the editor for good (after Save Post, or a delete). */
  dispose() {
    clearTimeout(this.timer);
    clearTimeout(this.localTimer);
  }

  private async send(url: string, method: string, body: object): Promise<Answer> {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: { "Content-Type": "application/json", [EDITOR_WINDOW_HEADER]: editorWindowId() },
        body: JSON.stringify(body),
      });
    } catch {
      return { kind: "network" };
    }
    const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (response.ok && answer) return { kind: "ok", body: answer };
    if (response.status === 409 && answer?.conflict) {
      return { kind: "conflict", conflict: answer.conflict as EditConflict };
    }
    if (response.status >= 500 || !answer) return { kind: "server" };
    const reason = typeof answer.error === "string" ? answer.error : `HTTP ${response.status}`;
    return { kind: "refused", status: response.status, reason };
  }
}

const isBlank = (draft: PostDraft) =>
  draft.title.trim() === "" && draft.description.trim() === "" && draft.empty;

/** An autosave's body: the fields as typed. */
const autosaveBody = (draft: PostDraft) => ({
  title: draft.title,
  description: draft.description,
  content: draft.html,
  slug: draft.slug,
  tags: draft.tagText,
  publish: publishChoiceOf(draft),
  canonicalUrl: draft.canonicalUrl ?? "",
  syndication: draft.syndicationText ?? "",
});
