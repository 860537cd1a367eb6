/// <reference lib="dom" />
/**
 * What a person sees wrong on a screen, measured in the page: sideways scrolling, money figures cut or
 * pushed off the screen, a toast or banner lying over a control, and axe-core's accessibility findings.
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** How far the page is wider than the screen (0 when nothing scrolls sideways). */
export const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Texts with a rouble sign that the reader cannot see whole: clipped by their box (wider content than
 * the box shows) or reaching past the screen's edges. Returns their texts.
 */
export const cutMoneyFigures = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const cut: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      if (!text.includes('₽')) continue;
      const element = node.parentElement;
      if (!element || element.closest('[hidden], details:not([open]) > :not(summary), [aria-hidden="true"]')) continue;
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.width === 0) continue;
        if (rect.left < -1 || rect.right > width + 1) cut.push(text.trim());
      }
      // A box that clips its text (overflow hidden + ellipsis or not) while the text is wider than it.
      for (let box: HTMLElement | null = element; box && box !== document.body; box = box.parentElement) {
        const boxStyle = getComputedStyle(box);
        if (boxStyle.overflowX !== 'visible' && boxStyle.overflowX !== 'auto' && boxStyle.overflowX !== 'scroll' && box.scrollWidth > box.clientWidth + 1) {
          cut.push(text.trim());
          break;
        }
      }
    }
    return [...new Set(cut)];
  });

/**
 * Floating layers (toasts, the cookie banner, the update prompt) that lie over a control they must
 * leave free: the header's (balance, bell, avatar, logo) or another layer's («Согласен», «Обновить»).
 * The page's own content may scroll under a layer. Returns «layer → control» pairs.
 */
export const layersOverControls = (page: Page) =>
  page.evaluate(() => {
    const layerSelector = '[data-sonner-toast], .cookie-banner, .update-prompt';
    const controls = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea')].filter(
      (control) => control.closest('.app-header') || control.closest(layerSelector),
    );
    const found: string[] = [];
    for (const control of controls) {
      const rect = control.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      // What the finger would hit at the control's centre and corners: a layer that is not the control's own.
      const points: [number, number][] = [
        [rect.left + rect.width / 2, rect.top + rect.height / 2],
        [rect.left + 2, rect.top + 2],
        [rect.right - 2, rect.bottom - 2],
      ];
      for (const [x, y] of points) {
        if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) continue;
        const layer = document.elementFromPoint(x, y)?.closest<HTMLElement>(layerSelector);
        if (layer && !layer.contains(control)) {
          found.push(`${layer.className || layer.tagName} → ${control.textContent?.trim() || control.getAttribute('aria-label')}`);
          break;
        }
      }
    }
    return found;
  });

/**
 * Words drawn across two lines («Фа|йл|ы», «Отклони|ть»): every run of letters or digits of a visible text
 * whose pieces land on different lines. Machine strings (links, addresses, file names, codes: a token with
 * «.», «/», «@», «_», «:» or «=») may wrap anywhere and are left out, as are texts in `code` and inputs.
 * Returns «word (in its text)» descriptions.
 */
export const wordsBrokenMidWord = (page: Page) =>
  page.evaluate(() => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const element = node.parentElement;
      if (!element || text.trim().length < 2 || element.closest('code, pre, script, style, textarea, select, option, [hidden], [aria-hidden="true"]')) continue;
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      for (const token of text.matchAll(/\S+/g)) {
        if (/[./@_:=\\]/.test(token[0])) continue;
        for (const word of token[0].matchAll(/[\p{L}\p{N}]{2,}/gu)) {
          const start = token.index + word.index;
          range.setStart(node, start);
          range.setEnd(node, start + word[0].length);
          const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(`${word[0]} (в «${text.trim().slice(0, 60)}»)`);
        }
      }
    }
    return [...new Set(broken)];
  });

/**
 * Cells of the stacked tables (a phone shows each row as a card) that show no column name: every cell with
 * something in it must carry its label (`data-label`, drawn by `.table td::before`). Returns «column: value».
 */
export const unlabelledTableCells = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    for (const cell of document.querySelectorAll<HTMLElement>('table.table td')) {
      if (cell.getClientRects().length === 0 || !cell.textContent?.trim() || cell.querySelector('button, a.btn')) continue;
      const label = getComputedStyle(cell, '::before').content;
      if (label === 'none' || label === 'normal' || label === '""') found.push(cell.textContent.trim().slice(0, 40));
    }
    return found;
  });

const axeSource = axe.source;

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's WCAG 2.0–2.2 A/AA findings of impact «serious» or «critical» on the page as it is now. */
export async function seriousAxeViolations(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') rightly refuses inline scripts.
  if (!loaded) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')) }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
