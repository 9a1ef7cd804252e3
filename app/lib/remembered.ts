import { LRUCache } from "lru-cache";

/**
 * `transform` with its recent answers kept, keyed by the whole string it was given, up to
 * `maxChars` characters kept in all (each answer counts its input and its output). For a
 * function of its input alone that is slow next to hashing the input, such as a sanitizer run on
 * every render of the same stored HTML. An answer larger than the whole bound is never kept.
 */
export function remembered(
  transform: (input: string) => string,
  maxChars: number,
): (input: string) => string {
  const answers = new LRUCache<string, string>({
    maxSize: maxChars,
    sizeCalculation: (output, input) => Math.max(1, output.length + input.length),
  });
  return (input) => {
    let output = answers.get(input);
    if (output === undefined) {
      output = transform(input);
      if (output.length + input.length <= maxChars) answers.set(input, output);
    }
    return output;
  };
}
