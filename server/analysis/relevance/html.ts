/**
 * A small, careful HTML reader for landing pages: what a person (and an ad-quality robot) reads on the
 * page, without a DOM library. It only needs a few facts (title, description, h1/h2, robots, canonical,
 * visible text), so it works on the raw markup:
 * - comments, CDATA, and the contents of script/style/noscript/template/svg/iframe/select are dropped;
 * - nav blocks are dropped too: menus repeat on every page and would make any page "mention" every
 *   product of the site;
 * - block tags become line breaks, entities are decoded, whitespace collapsed.
 * Regular expressions are linear here (no nested quantifiers), so a 2 MB page is read in milliseconds.
 */

export interface PageContent {
  title: string | null;
  metaDescription: string | null;
  h1: string[];
  h2: string[];
  /** Visible text of the body (nav, scripts and styles removed). */
  text: string;
  wordCount: number;
  /** `<meta name="robots" content="noindex">` (or googlebot/yandex). */
  noindex: boolean;
  canonical: string | null;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', laquo: '«', raquo: '»', mdash: '—', ndash: '–',
  hellip: '…', copy: '©', reg: '®', trade: '™', rarr: '→', larr: '←', bull: '•', middot: '·', times: '×',
  deg: '°', plusmn: '±', rub: '₽', euro: '€', shy: '', zwnj: '', zwj: '', thinsp: ' ', ensp: ' ', emsp: ' ',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', bdquo: '„', sbquo: '‚', numero: '№',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);?/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    const named = NAMED_ENTITIES[body.toLowerCase()];
    return named ?? whole;
  });
}

const collapse = (text: string) => text.replace(/[\s\u00a0]+/g, ' ').trim();

/** Text of a fragment of markup: tags removed, entities decoded, spaces collapsed. */
export function textOf(fragment: string): string {
  return collapse(decodeEntities(fragment.replace(/<[^>]*>/g, ' ')));
}

/** Attributes of one start tag, names lower-cased. */
export function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  const pattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  // Skip the tag name itself.
  const body = tag.replace(/^<\s*[a-z0-9-]+/i, '').replace(/\/?>$/, '');
  for (const match of body.matchAll(pattern)) {
    attributes[match[1].toLowerCase()] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attributes;
}

/** Removes whole elements whose contents are never shown as page text. */
const HIDDEN_ELEMENTS = ['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'select', 'object', 'canvas', 'nav'];

function stripHidden(html: string): string {
  let result = html.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ' ');
  for (const name of HIDDEN_ELEMENTS) {
    // Non-greedy up to the first closing tag; nested nav inside nav is rare, and an unclosed one drops the rest.
    result = result.replace(new RegExp(`<${name}\\b[^>]*>[\\s\\S]*?(?:<\\/${name}\\s*>|$)`, 'gi'), ' ');
  }
  return result;
}

function elementsText(html: string, name: string, limit: number): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(new RegExp(`<${name}\\b[^>]*>([\\s\\S]*?)<\\/${name}\\s*>`, 'gi'))) {
    const text = textOf(match[1]);
    if (text) found.push(text);
    if (found.length >= limit) break;
  }
  return found;
}

const BLOCK_TAGS = /<\/?(?:p|div|section|article|main|aside|header|footer|h[1-6]|li|ul|ol|table|tr|td|th|br|hr|form|label|button|dd|dt|blockquote|figure|figcaption)\b[^>]*>/gi;

const WORD = /[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu;
export const countWords = (text: string) => (text.match(WORD) ?? []).length;

export function extractPage(html: string): PageContent {
  const visible = stripHidden(html);
  const head = /<head\b[\s\S]*?<\/head\s*>/i.exec(html)?.[0] ?? html;

  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const title = titleMatch ? textOf(titleMatch[1]) || null : null;

  let metaDescription: string | null = null;
  let noindex = false;
  for (const match of head.matchAll(/<meta\b[^>]*>/gi)) {
    const attributes = attributesOf(match[0]);
    const name = (attributes.name ?? attributes.property ?? '').toLowerCase();
    const content = attributes.content ?? '';
    if (name === 'description' && metaDescription === null) metaDescription = collapse(content) || null;
    if ((name === 'robots' || name === 'googlebot' || name === 'yandex') && /\bnoindex\b|\bnone\b/i.test(content)) noindex = true;
  }

  let canonical: string | null = null;
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const attributes = attributesOf(match[0]);
    if ((attributes.rel ?? '').toLowerCase().split(/\s+/).includes('canonical') && attributes.href) {
      canonical = attributes.href.trim();
      break;
    }
  }

  const bodyMatch = /<body\b[^>]*>([\s\S]*)$/i.exec(visible);
  const body = bodyMatch ? bodyMatch[1] : visible.replace(/<head\b[\s\S]*?<\/head\s*>/i, ' ');
  // Keep the title's words out of the text: it is counted on its own.
  const text = collapse(decodeEntities(body.replace(/<title\b[\s\S]*?<\/title\s*>/gi, ' ').replace(BLOCK_TAGS, '\n').replace(/<[^>]*>/g, ' ')));

  return {
    title,
    metaDescription,
    h1: elementsText(visible, 'h1', 10),
    h2: elementsText(visible, 'h2', 20),
    text,
    wordCount: countWords(text),
    noindex,
    canonical,
  };
}
