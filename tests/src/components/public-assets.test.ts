import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEGAL_DOCUMENTS } from '../../../src/components/layout/Footer';

const publicDir = resolve(__dirname, '../../../public');

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(resolve(publicDir, file));
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('files of public/', () => {
  it.each(LEGAL_DOCUMENTS.map((doc) => doc.href))('%s is a real PDF document', (href) => {
    const bytes = readFileSync(resolve(publicDir, `.${href}`));
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(10_000);
    expect(bytes.toString('latin1')).toMatch(/\/Type\s*\/Page\b/);
  });

  it('has the logo and the PWA icons in their sizes', () => {
    expect(pngSize('logo.png').width).toBeGreaterThanOrEqual(64);
    expect(pngSize('icons/icon-192.png')).toEqual({ width: 192, height: 192 });
    expect(pngSize('icons/icon-512.png')).toEqual({ width: 512, height: 512 });
    expect(pngSize('icons/icon-maskable-512.png')).toEqual({ width: 512, height: 512 });
    expect(readFileSync(resolve(publicDir, 'favicon.svg'), 'utf8')).toContain('<svg');
  });
});
