import { deflateSync } from 'node:zlib';
import { imageDimensions } from './image-dimensions';

/** A real (decodable) RGB PNG of the given size. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, no filter, no interlace
  const rows = Buffer.alloc(height * (1 + width * 3)); // filter byte 0 + black pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function gif(width: number, height: number, version = '89a'): Buffer {
  const b = Buffer.alloc(13);
  b.write(`GIF${version}`, 0, 'ascii');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return b;
}

/** SOI, an APP0 (JFIF) segment, a DQT-like segment, then a frame header with the given marker. */
function jpeg(width: number, height: number, sof = 0xc0, options: { fill?: boolean } = {}): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const dqt = Buffer.from([0xff, 0xdb, 0x00, 0x04, 0x00, 0x00]);
  const frame = Buffer.from([0xff, sof, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, options.fill ? Buffer.from([0xff]) : Buffer.alloc(0), dqt, frame, Buffer.alloc(16)]);
}

describe('imageDimensions', () => {
  it('reads PNG width and height from IHDR', () => {
    expect(imageDimensions(png(3, 2))).toEqual({ width: 3, height: 2 });
    expect(imageDimensions(png(70000, 1))).toEqual({ width: 70000, height: 1 });
  });

  it('reads GIF87a and GIF89a logical screen sizes', () => {
    expect(imageDimensions(gif(640, 480))).toEqual({ width: 640, height: 480 });
    expect(imageDimensions(gif(1, 300, '87a'))).toEqual({ width: 1, height: 300 });
  });

  it('reads JPEG baseline and progressive frame headers, skipping other segments and fill bytes', () => {
    expect(imageDimensions(jpeg(1024, 768))).toEqual({ width: 1024, height: 768 });
    expect(imageDimensions(jpeg(5, 9, 0xc2, { fill: true }))).toEqual({ width: 5, height: 9 });
  });

  it('does not take a DHT segment (0xC4) for a frame header', () => {
    const dht = Buffer.from([0xff, 0xc4, 0x00, 0x06, 0x00, 0x10, 0x00, 0x20]);
    const bytes = Buffer.concat([Buffer.from([0xff, 0xd8]), dht, jpeg(12, 34).subarray(2)]);
    expect(imageDimensions(bytes)).toEqual({ width: 12, height: 34 });
  });

  it('gives nothing for other formats, truncated headers and zero sizes', () => {
    expect(imageDimensions(Buffer.from('hello world, not an image'))).toBeUndefined();
    expect(imageDimensions(Buffer.alloc(0))).toBeUndefined();
    expect(imageDimensions(png(3, 2).subarray(0, 20))).toBeUndefined();
    expect(imageDimensions(jpeg(10, 10).subarray(0, 30))).toBeUndefined();
    expect(imageDimensions(gif(0, 10))).toBeUndefined();
    expect(imageDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02]))).toBeUndefined();
  });
});
