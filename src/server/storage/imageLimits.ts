/** Bounds on uploaded images, shared by the server's thread and the inspection thread. */

/**
 * Most pixels an uploaded image may have: 40 megapixels holds any ID photo or phone picture at
 * full resolution, and bounds what one upload costs to decode (a 97 KB PNG can claim 100 Mpx).
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Longest side, so a 1 x 40,000,000 strip does not slip under the pixel count. */
export const MAX_IMAGE_SIDE = 20_000;
