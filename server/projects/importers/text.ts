/**
 * Turning file bytes into text: encoding detection (BOMs, BOM-less UTF-16 by its zero bytes, UTF-8 checked
 * strictly, Windows-1251 as the fallback every Russian Excel writes).
 */
import type { TextEncodingName } from './types.js';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
}

export function detectEncoding(bytes: Uint8Array): TextEncodingName {
  const found = detectWithoutFullCheck(bytes);
  if (found !== 'utf-8?') return found;
  return isValidUtf8(bytes) ? 'utf-8' : 'windows-1251';
}

/**
 * BOMs first; then BOM-less UTF-16 by its zero bytes (ASCII characters of UTF-16LE have a zero in every odd
 * byte, Cyrillic ones do not, so a clear bias to one parity is enough; UTF-8 and Windows-1251 text never
 * has zero bytes); otherwise UTF-8 or Windows-1251, decided by a strict UTF-8 pass.
 */
function detectWithoutFullCheck(bytes: Uint8Array): TextEncodingName | 'utf-8?' {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8-bom';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const zeros = zeroBytesByParity(bytes);
  if (zeros.sampled >= 4) {
    if (zeros.odd > zeros.sampled * 0.05 && zeros.even < zeros.odd / 10) return 'utf-16le';
    if (zeros.even > zeros.sampled * 0.05 && zeros.odd < zeros.even / 10) return 'utf-16be';
  }
  return 'utf-8?';
}

export function decodeText(bytes: Uint8Array): DecodedText {
  const encoding = detectWithoutFullCheck(bytes);
  switch (encoding) {
    case 'utf-8?':
      // One strict pass both validates and decodes; invalid UTF-8 is the Windows-1251 of Russian Excel.
      try {
        return { encoding: 'utf-8', text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
      } catch {
        return { encoding: 'windows-1251', text: new TextDecoder('windows-1251').decode(bytes) };
      }
    case 'utf-8-bom':
      return { encoding, text: new TextDecoder('utf-8').decode(bytes.subarray(3)) };
    case 'utf-16le':
      return { encoding, text: stripBom(new TextDecoder('utf-16le').decode(bytes)) };
    case 'utf-16be':
      return { encoding, text: stripBom(new TextDecoder('utf-16be').decode(bytes)) };
    case 'utf-8':
      return { encoding, text: new TextDecoder('utf-8').decode(bytes) };
    case 'windows-1251':
      return { encoding, text: new TextDecoder('windows-1251').decode(bytes) };
  }
}

/** True when the text has many control characters: the bytes were not a text table at all. */
export function looksBinary(text: string): boolean {
  const sample = text.length > 65536 ? text.slice(0, 65536) : text;
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (code < 9 || (code > 13 && code < 32) || code === 0xfffd) control += 1;
  }
  return control > sample.length * 0.02;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function zeroBytesByParity(bytes: Uint8Array): { odd: number; even: number; sampled: number } {
  const length = Math.min(bytes.length, 4096) & ~1;
  let odd = 0;
  let even = 0;
  for (let i = 0; i < length; i += 2) {
    if (bytes[i] === 0) even += 1;
    if (bytes[i + 1] === 0) odd += 1;
  }
  return { odd, even, sampled: length / 2 };
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
