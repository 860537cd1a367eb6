/**
 * Hostile uploads, generated on demand (never committed): an XLSX zip bomb whose one shared string
 * inflates to hundreds of MB, the same with a central directory that lies about its sizes, and a
 * honest workbook with one over-long cell. Used by `npm run bench` (module `hostile-uploads`) and the
 * import-limit tests.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { createDeflateRaw } from 'node:zlib';

export interface ZipPart {
  name: string;
  /** The entry's bytes, deflated by the writer. */
  data?: Buffer;
  /** An entry already deflated, with the size and CRC of what it inflates to. */
  deflated?: { bytes: Buffer; size: number; crc: number };
  /** Declared uncompressed size written into the headers instead of the real one (a lying zip). */
  declaredSize?: number;
}

/** A zip file (deflate, no data descriptors) of the parts, written by hand so the headers can lie. */
export function writeZip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const deflated = part.deflated ?? { bytes: deflateRawSync(part.data ?? Buffer.alloc(0)), size: (part.data ?? Buffer.alloc(0)).length, crc: crc32(part.data ?? Buffer.alloc(0)) };
    const size = part.declaredSize ?? deflated.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(deflated.crc >>> 0, 14);
    local.writeUInt32LE(deflated.bytes.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, deflated.bytes);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(deflated.crc >>> 0, 16);
    entry.writeUInt32LE(deflated.bytes.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += local.length + name.length + deflated.bytes.length;
  }
  const centralBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralBytes, end]);
}

/** Deflates `prefix + filler × count + suffix` chunk by chunk: a huge entry without holding it in memory. */
async function deflateRepeated(prefix: string, filler: Buffer, count: number, suffix: string): Promise<{ bytes: Buffer; size: number; crc: number }> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    deflate.once('end', resolve);
    deflate.once('error', reject);
  });
  let size = 0;
  let crc = 0;
  const write = async (chunk: Buffer) => {
    size += chunk.length;
    crc = crc32(chunk, crc);
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  };
  await write(Buffer.from(prefix));
  for (let i = 0; i < count; i++) await write(filler);
  await write(Buffer.from(suffix));
  deflate.end();
  await done;
  return { bytes: Buffer.concat(out), size, crc };
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Кампании" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
const SHEET = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="s"><v>3</v></c></row></sheetData></worksheet>`;
const SHARED_PREFIX = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4" uniqueCount="4"><si><t>Кампания</t></si><si><t>Группа</t></si><si><t>Окна</t></si><si><t>`;
const SHARED_SUFFIX = `</t></si></sst>`;

export interface HostileXlsxOptions {
  /** Characters of the one long cell. */
  cellChars: number;
  /** Write this uncompressed size into the headers of the shared strings instead of the real one. */
  declaredSize?: number;
}

/** A workbook whose shared string #3 (cell B2) is `cellChars` letters long; 300 MB of it deflates to about 300 KB. */
export async function hostileXlsx(options: HostileXlsxOptions): Promise<Buffer> {
  const chunk = 1024 * 1024;
  const filler = Buffer.alloc(chunk, 'A');
  const full = Math.floor(options.cellChars / chunk);
  const rest = 'A'.repeat(options.cellChars - full * chunk);
  const shared = await deflateRepeated(SHARED_PREFIX, filler, full, rest + SHARED_SUFFIX);
  return writeZip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(ROOT_RELS) },
    { name: 'xl/workbook.xml', data: Buffer.from(WORKBOOK) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(WORKBOOK_RELS) },
    { name: 'xl/sharedStrings.xml', deflated: shared, declaredSize: options.declaredSize },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(SHEET) },
  ]);
}

/** The zip bomb of the issue: about 500 KB that expands to one 500 MB cell (over the 400 MB an upload may expand to). */
export const zipBombXlsx = () => hostileXlsx({ cellChars: 500 * 1024 * 1024 });
