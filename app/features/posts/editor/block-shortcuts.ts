import { Extension, type ChainedCommands } from "@tiptap/react";

import { toggleBlock } from "./trailing-paragraph";

/**
 * StarterKit's keyboard shortcuts for the block formats, run as the toolbar runs them (through
 * toggleBlock), so after Ctrl+A a second Ctrl+Alt+1 turns the heading back into a paragraph
 * too instead of adding an empty heading. The higher priority puts these bindings ahead of
 * StarterKit's for the same keys.
 */
export const BlockShortcuts = Extension.create({
  name: "blockShortcuts",
  priority: 1000,
  addKeyboardShortcuts() {
    const run = (toggle: (chain: ChainedCommands) => ChainedCommands) => () =>
      toggleBlock(this.editor, toggle);
    return {
      "Mod-Alt-1": run((c) => c.toggleHeading({ level: 1 })),
      "Mod-Alt-2": run((c) => c.toggleHeading({ level: 2 })),
      "Mod-Alt-3": run((c) => c.toggleHeading({ level: 3 })),
      "Mod-Shift-8": run((c) => c.toggleBulletList()),
      "Mod-Shift-7": run((c) => c.toggleOrderedList()),
      "Mod-Shift-b": run((c) => c.toggleBlockquote()),
      "Mod-Alt-c": run((c) => c.toggleCodeBlock()),
    };
  },
});
