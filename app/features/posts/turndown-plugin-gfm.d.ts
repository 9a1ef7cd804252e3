// @joplin/turndown-plugin-gfm ships no types; this covers the part the posts' export uses
// (its `tables` rule, ./export.server.ts).
declare module "@joplin/turndown-plugin-gfm" {
  import type TurndownService from "turndown";

  /** GFM pipe tables for the tables it can write as one (the others it keeps as HTML). */
  export function tables(service: TurndownService): void;
  export function strikethrough(service: TurndownService): void;
  export function taskListItems(service: TurndownService): void;
  export function gfm(service: TurndownService): void;
}
