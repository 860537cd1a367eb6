import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEGAL_DOCUMENTS } from '@/components/layout/Footer';

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

  it.each(LEGAL_DOCUMENTS.map((doc) => [doc.href, doc.title] as const))('%s is the Russian document «%s» rendered from src/legal', (href, title) => {
    const name = href.replace(/^\/|\.pdf$/g, '');
    const source = readFileSync(resolve(publicDir, `../src/legal/${name}.html`), 'utf8');
    const sourceTitle = source.match(/<title>([^<]+)<\/title>/)![1]!;
    expect(sourceTitle.startsWith(title)).toBe(true);
    // A real document: several sections of Russian text, not a placeholder.
    const text = source.replace(/<[^>]+>/g, ' ');
    expect(text.match(/[а-яё]+/gi)!.length).toBeGreaterThan(200);
    expect(source.match(/<h2>/g)!.length).toBeGreaterThanOrEqual(4);
    // Chromium writes the page title into the PDF as UTF-16BE: the PDF is the render of this source.
    const hex = readFileSync(resolve(publicDir, `.${href}`)).toString('latin1').match(/\/Title\s*<FEFF([0-9A-F]+)>/i)![1]!;
    expect(Buffer.from(hex, 'hex').swap16().toString('utf16le')).toBe(sourceTitle);
  });

  it('has the logo and the PWA icons in their sizes', () => {
    expect(pngSize('logo.png').width).toBeGreaterThanOrEqual(64);
    expect(pngSize('icons/icon-192.png')).toEqual({ width: 192, height: 192 });
    expect(pngSize('icons/icon-512.png')).toEqual({ width: 512, height: 512 });
    expect(pngSize('icons/icon-maskable-512.png')).toEqual({ width: 512, height: 512 });
    expect(readFileSync(resolve(publicDir, 'favicon.svg'), 'utf8')).toContain('<svg');
  });
});
