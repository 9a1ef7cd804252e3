// A test image for the benchmarks that upload photos (bench/writing.mjs, bench/images.mjs).
import sharp from "sharp";

/** A photo-like JPEG: smooth gradients with grain, the texture a camera gives an encoder. */
export async function photo(width, height) {
  const gradient = Buffer.from(
    `<svg width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2a6f97"/><stop offset="0.5" stop-color="#f4a261"/><stop offset="1" stop-color="#264653"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width * 0.3}" cy="${height * 0.4}" r="${height * 0.2}" fill="#e9c46a"/></svg>`,
  );
  const grain = await sharp({
    create: { width, height, channels: 3, noise: { type: "gaussian", mean: 128, sigma: 12 } },
  })
    .raw()
    .toBuffer();
  return sharp(gradient)
    .composite([{ input: grain, raw: { width, height, channels: 3 }, blend: "overlay" }])
    .jpeg({ quality: 88 })
    .toBuffer();
}
