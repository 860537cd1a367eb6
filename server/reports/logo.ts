/**
 * An uploaded logo is checked before it is kept, so a report never fails (or fails half-drawn) on it:
 * PNG or JPEG by their bytes (not by what the client says), at most 256 KB, 16–4000 px a side, and a PNG's
 * compressed pixels must inflate. An SVG is refused: it can carry scripts, and pdfkit does not draw it.
 */
import { inflateSync } from 'node:zlib';
import { reportMessages as m } from '../../contract/messages.js';
import { REPORT_LOGO_MAX_BYTES, REPORT_LOGO_MAX_SIDE, REPORT_LOGO_MIN_SIDE, type ReportLogoMediaType } from '../../contract/reports.js';
import { validationError } from '../lib/errors.js';

export interface CheckedLogo {
  bytes: Buffer;
  mediaType: ReportLogoMediaType;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const logoError = (message: string) => validationError([{ loc: ['body', 'logo'], msg: message }]);

/** The logo of a `data:image/…;base64,` URL (its form is checked by the contract), or a 422 saying what is wrong. */
export function checkLogo(dataUrl: string): CheckedLogo {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (bytes.length > REPORT_LOGO_MAX_BYTES) throw logoError(m.logoTooLarge);
  const mediaType = bytes.subarray(0, 8).equals(PNG_SIGNATURE) ? 'image/png' : bytes[0] === 0xff && bytes[1] === 0xd8 ? 'image/jpeg' : null;
  if (!mediaType) throw logoError(m.logoInvalid);
  const size = mediaType === 'image/png' ? pngSize(bytes) : jpegSize(bytes);
  if (!size) throw logoError(m.logoUnreadable);
  const sides = [size.width, size.height];
  if (sides.some((side) => side < REPORT_LOGO_MIN_SIDE || side > REPORT_LOGO_MAX_SIDE)) throw logoError(m.logoSize);
  return { bytes, mediaType };
}

/** Width and height from the IHDR chunk, once every chunk is whole and the pixel data inflates. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 33 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const bitDepth = bytes[24]!;
  // pdfkit draws 1–8 bits a channel; 16-bit images come out wrong there.
  if (bitDepth > 8) return null;
  const data: Buffer[] = [];
  let offset = 8;
  let ended = false;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (offset + 12 + length > bytes.length) return null;
    if (type === 'IDAT') data.push(bytes.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
    if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  if (!ended || data.length === 0) return null;
  try {
    inflateSync(Buffer.concat(data));
  } catch {
    return null;
  }
  return { width, height };
}

/** Width and height from the first start-of-frame marker (any SOF but DHT, JPG and DAC). */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    if (marker === 0xda || length < 2) return null;
    offset += 2 + length;
  }
  return null;
}
