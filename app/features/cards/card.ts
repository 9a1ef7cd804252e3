/** Share cards: the numbers the renderer and the page head share (docs/decisions/035-share-cards.md). */
import type { StoredShareCard } from "../../../database/schema";
import { mediaUrl } from "~/features/media";
import { SECOND_MS } from "~/lib/format";

/** The size of a share card, as Open Graph and Twitter's large card want it. */
export const CARD_SIZE = { width: 1200, height: 630 } as const;

export const CARD_LIMITS = {
  /** A heading longer than this many characters is cut at a word, with an ellipsis. */
  headingChars: 110,
  /** Lines of the heading drawn at most (the rest is clamped with an ellipsis). */
  headingLines: 4,
  /** How long one thread may take to draw a batch of cards. */
  batchMs: 60 * SECOND_MS,
  /** The most a card weighs: link previews fetch it, and some refuse big images. */
  maxBytes: 150 * 1024,
  /** Palettes tried in turn to bring a card under maxBytes (the last one is kept). */
  paletteColours: [256, 64, 16],
  /** Cards drawn by one thread. */
  batch: 20,
} as const;

/** The drawing's version: changing the layout changes it, so every card is drawn again. */
export const CARD_VERSION = 1;

/** The page head's image: where the card is, and its text alternative. */
export type ShareImage = { url: string; alt: string; width: number; height: number };

/** A drawn card as a page names it. */
export const shareImageOf = ({ hash, alt }: StoredShareCard): ShareImage => ({
  url: mediaUrl(hash, "image/png"),
  alt,
  ...CARD_SIZE,
});

/** A card's text alternative: what it shows. */
export const cardAlt = (spec: { heading: string; detail: string }, home: boolean) =>
  home ? `${spec.heading}, ${spec.detail}` : spec.heading;
