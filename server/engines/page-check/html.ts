/**
 * Reads a landing page the way a person (and an ad-quality robot) reads it: title, description, h1/h2,
 * robots, canonical and the visible text. The markup is tokenised by htmlparser2 (a maintained, fast,
 * forgiving streaming parser: quotes, `>` inside attributes, unclosed and misnested tags and every HTML
 * entity are handled as browsers do), and this module only decides what counts as text:
 * - comments, CDATA, and the contents of script/style/noscript/template/svg/iframe/select/object/canvas
 *   are dropped;
 * - nav blocks are dropped as a whole, nested ones included: menus repeat on every page and would make
 *   any page "mention" every product of the site;
 * - block tags separate words, inline tags do not; whitespace is collapsed.
 * No DOM is built: the parser calls back while it reads, so a 2 MB page costs one pass.
 */
import { decodeHTML } from 'entities';
import { Parser } from 'htmlparser2';

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

/** Decodes every HTML entity (named, decimal, hexadecimal; legacy ones without `;` too). */
export function decodeEntities(text: string): string {
  return decodeHTML(text);
}

const collapse = (text: string) => text.replace(/[\s\u00a0]+/g, ' ').trim();

/** Elements whose contents are never shown as page text (or, for nav, are the site's menu). */
const HIDDEN_ELEMENTS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'select', 'object', 'canvas', 'nav']);

/** Elements that start a new line of text: words on both sides of them are separate words. */
const BLOCK_ELEMENTS = new Set([
  'p', 'div', 'section', 'article', 'main', 'aside', 'header', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'ul', 'ol',
  'table', 'tr', 'td', 'th', 'br', 'hr', 'form', 'label', 'button', 'dd', 'dt', 'dl', 'blockquote', 'figure', 'figcaption',
  'title', 'option', 'address', 'pre', 'caption', 'details', 'summary', 'body', 'head', 'html',
]);

const HEADING_LIMITS = { h1: 10, h2: 20 } as const;
type HeadingName = keyof typeof HEADING_LIMITS;
const isHeading = (name: string): name is HeadingName => name === 'h1' || name === 'h2';

const ROBOTS_NAMES = new Set(['robots', 'googlebot', 'yandex']);

interface Reading {
  title: string | null;
  metaDescription: string | null;
  h1: string[];
  h2: string[];
  text: string;
  noindex: boolean;
  canonical: string | null;
}

/**
 * One pass over the markup. `hiddenDepth` counts the hidden elements we are inside, so a nav in a nav
 * (or a nav left open) keeps everything up to its real end out of the text; the parser closes elements
 * it implies (a `</div>` closing an open nav inside it), so the count always returns to zero.
 */
function read(html: string): Reading {
  const textParts: string[] = [];
  const metas: { inHead: boolean; name: string; content: string }[] = [];
  const headings: { h1: string[]; h2: string[] } = { h1: [], h2: [] };
  const openHeadings: { name: HeadingName; parts: string[] }[] = [];
  let hiddenDepth = 0;
  let headDepth = 0;
  let sawHead = false;
  let titleParts: string[] | null = null;
  let title: string | null = null;
  let canonical: string | null = null;

  const separate = () => {
    textParts.push(' ');
    for (const heading of openHeadings) heading.parts.push(' ');
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (HIDDEN_ELEMENTS.has(name)) {
          hiddenDepth += 1;
          return;
        }
        if (hiddenDepth > 0) return;
        if (BLOCK_ELEMENTS.has(name)) separate();
        if (name === 'head') {
          headDepth += 1;
          sawHead = true;
        } else if (name === 'title' && title === null && titleParts === null) {
          titleParts = [];
        } else if (isHeading(name)) {
          openHeadings.push({ name, parts: [] });
        } else if (name === 'meta') {
          metas.push({ inHead: headDepth > 0, name: (attributes.name ?? attributes.property ?? '').toLowerCase(), content: attributes.content ?? '' });
        } else if (name === 'link' && canonical === null && attributes.href) {
          if ((attributes.rel ?? '').toLowerCase().split(/\s+/).includes('canonical')) canonical = attributes.href.trim();
        }
      },
      onclosetag(name) {
        if (HIDDEN_ELEMENTS.has(name)) {
          hiddenDepth = Math.max(0, hiddenDepth - 1);
          return;
        }
        if (hiddenDepth > 0) return;
        if (name === 'head') headDepth = Math.max(0, headDepth - 1);
        else if (name === 'title' && titleParts !== null) {
          title = collapse(titleParts.join('')) || null;
          titleParts = null;
        } else if (isHeading(name)) {
          const index = openHeadings.findLastIndex((heading) => heading.name === name);
          if (index >= 0) {
            const [heading] = openHeadings.splice(index, 1);
            const text = collapse(heading.parts.join(''));
            if (text && headings[name].length < HEADING_LIMITS[name]) headings[name].push(text);
          }
        }
        if (BLOCK_ELEMENTS.has(name)) separate();
      },
      ontext(data) {
        if (hiddenDepth > 0) return;
        if (titleParts !== null) {
          // The title is counted on its own, never as body text.
          titleParts.push(data);
          return;
        }
        for (const heading of openHeadings) heading.parts.push(data);
        if (headDepth === 0) textParts.push(data);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);

  // A page without <head> may put its meta tags anywhere; with one, only those in it count.
  const headMetas = sawHead ? metas.filter((meta) => meta.inHead) : metas;
  const description = headMetas.find((meta) => meta.name === 'description');
  const noindex = headMetas.some((meta) => ROBOTS_NAMES.has(meta.name) && /\bnoindex\b|\bnone\b/i.test(meta.content));

  return {
    title,
    metaDescription: description ? collapse(description.content) || null : null,
    h1: headings.h1,
    h2: headings.h2,
    text: collapse(textParts.join('')),
    noindex,
    canonical,
  };
}

/** Text of a fragment of markup: tags removed, entities decoded, spaces collapsed. */
export function textOf(fragment: string): string {
  const parts: string[] = [];
  const parser = new Parser({ ontext: (data) => parts.push(data), onopentag: () => parts.push(' '), onclosetag: () => parts.push(' ') }, { decodeEntities: true });
  parser.end(fragment);
  return collapse(parts.join(''));
}

/** Attributes of one start tag, names lower-cased, values decoded. */
export function attributesOf(tag: string): Record<string, string> {
  let found: Record<string, string> = {};
  let seen = false;
  const parser = new Parser(
    {
      onopentag(_name, attributes) {
        if (seen) return;
        seen = true;
        found = { ...attributes };
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  parser.end(tag);
  return found;
}

const WORD = /[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu;
export const countWords = (text: string) => (text.match(WORD) ?? []).length;

export function extractPage(html: string): PageContent {
  const reading = read(html);
  return { ...reading, wordCount: countWords(reading.text) };
}
