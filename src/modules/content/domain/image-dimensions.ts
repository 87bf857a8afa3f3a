/**
 * Width and height of a PNG, GIF or JPEG image read from its header bytes, without decoding
 * it. Anything else (other formats, truncated or corrupt headers) gives `undefined`.
 */
export interface ImageDimensions {
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function imageDimensions(bytes: Uint8Array): ImageDimensions | undefined {
  const found = png(bytes) ?? gif(bytes) ?? jpeg(bytes);
  return found && found.width > 0 && found.height > 0 ? found : undefined;
}

function png(b: Uint8Array): ImageDimensions | undefined {
  // Signature, then the IHDR chunk: length (4), "IHDR" (4), width (4, BE), height (4, BE).
  if (b.length < 24 || !PNG_SIGNATURE.every((byte, i) => b[i] === byte)) return undefined;
  if (String.fromCharCode(b[12], b[13], b[14], b[15]) !== 'IHDR') return undefined;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

function gif(b: Uint8Array): ImageDimensions | undefined {
  // "GIF87a" / "GIF89a", then the logical screen width and height (2 bytes each, LE).
  if (b.length < 10) return undefined;
  const signature = String.fromCharCode(...b.subarray(0, 6));
  if (signature !== 'GIF87a' && signature !== 'GIF89a') return undefined;
  return { width: b[6] | (b[7] << 8), height: b[8] | (b[9] << 8) };
}

/** Start-of-frame markers (baseline, progressive, lossless...): all but DHT (C4), JPG (C8) and DAC (CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpeg(b: Uint8Array): ImageDimensions | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    // Markers without a length: TEM, RSTn, SOI. EOI or SOS before a frame header: no dimensions.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined;
    const length = (b[i + 2] << 8) | b[i + 3];
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) {
      // Length (2), precision (1), height (2), width (2).
      if (i + 8 >= b.length) return undefined;
      return { width: (b[i + 7] << 8) | b[i + 8], height: (b[i + 5] << 8) | b[i + 6] };
    }
    i += 2 + length;
  }
  return undefined;
}

function u32be(b: Uint8Array, offset: number): number {
  return ((b[offset] << 24) >>> 0) + (b[offset + 1] << 16) + (b[offset + 2] << 8) + b[offset + 3];
}
