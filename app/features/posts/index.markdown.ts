// Markdown as post HTML, with footnotes, math and callouts (./markdown-blocks.ts): the Markdown
// import's part of this feature, loaded with it on an import's first use, so that marked is not
// loaded at the server's start.
export { markdownToHtml } from "./markdown-blocks";
