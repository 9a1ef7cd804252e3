import Image from "@tiptap/extension-image";

/**
 * A post's image in the editor: an uploaded file (POST /api/images) with its WebP `srcset` and
 * its dimensions, as the reader and the sanitizer expect them. Block-level, never base64.
 */
export const PostImage = Image.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      srcset: {
        default: null,
        parseHTML: (element) => element.getAttribute("srcset"),
        renderHTML: (attributes) =>
          attributes.srcset ? { srcset: attributes.srcset as string } : {},
      },
    };
  },
}).configure({ inline: false, allowBase64: false, resize: false });
