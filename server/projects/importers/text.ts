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
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8-bom';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const zeros = zeroBytesByParity(bytes);
  // ASCII-heavy UTF-16 text has a zero in every other byte; Cyrillic UTF-16LE (0x04xx) still has zero-free
  // pairs, so a clear majority on one parity is enough.
  if (zeros.sampled >= 4) {
    if (zeros.odd > zeros.sampled * 0.05 && zeros.even < zeros.odd / 10) return 'utf-16le';
    if (zeros.even > zeros.sampled * 0.05 && zeros.odd < zeros.even / 10) return 'utf-16be';
  }
  if (isValidUtf8(bytes)) return 'utf-8';
  return 'windows-1251';
}

export function decodeText(bytes: Uint8Array): DecodedText {
  const encoding = detectEncoding(bytes);
  switch (encoding) {
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
