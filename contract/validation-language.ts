/**
 * Russian for valibot's built-in messages. `@valibot/i18n` supports only valibot < 1, so the contract
 * carries its own: one global message function, installed when this module is first loaded. Every
 * contract module loads it (through ./text.ts or ./common.ts), so the server's validation and the PWA's
 * forms both answer in Russian where a schema gives no message of its own.
 */
import { setGlobalMessage, type BaseIssue } from 'valibot';
import { genericValidationMessages as m } from './messages.js';

const fill = (template: string, value: unknown) => template.replace('{value}', String(value));

/** `("a" | "b")` as valibot writes expectations → «a», «b». */
const readableExpectation = (expected: string | null) =>
  (expected ?? '')
    .replace(/^\((.*)\)$/, '$1')
    .split(' | ')
    .map((item) => `«${item.replace(/^"|"$/g, '')}»`)
    .join(', ');

export function russianIssueMessage(issue: BaseIssue<unknown>): string {
  const requirement = (issue as { requirement?: unknown }).requirement;
  const isText = typeof issue.input === 'string';
  switch (issue.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'array':
    case 'null':
    case 'date':
      return m[issue.type];
    case 'object':
    case 'loose_object':
    case 'strict_object':
    case 'object_with_rest':
      // A key the object lists but the input lacks is reported by the object schema itself.
      if (issue.kind === 'schema' && issue.input === undefined && issue.path?.length) return m.missingKey;
      if (issue.expected === 'never') return m.unknownKey;
      return m.object;
    case 'record':
    case 'loose_tuple':
    case 'strict_tuple':
    case 'tuple':
      return m.object;
    case 'picklist':
    case 'enum':
      return fill(m.picklist, readableExpectation(issue.expected));
    case 'literal':
      return fill(m.literal, readableExpectation(issue.expected));
    case 'union':
    case 'variant':
      return m.union;
    case 'min_length':
      return fill(isText ? m.minLengthText : m.minLengthList, requirement);
    case 'max_length':
      return fill(isText ? m.maxLengthText : m.maxLengthList, requirement);
    case 'non_empty':
      return m.nonEmpty;
    case 'email':
      return m.email;
    case 'uuid':
      return m.uuid;
    case 'url':
      return m.url;
    case 'regex':
      return m.regex;
    case 'integer':
    case 'safe_integer':
      return m.integer;
    case 'finite':
      return m.finite;
    case 'min_value':
      return fill(m.minValue, requirement);
    case 'max_value':
      return fill(m.maxValue, requirement);
    case 'gt_value':
      return fill(m.gtValue, requirement);
    case 'lt_value':
      return fill(m.ltValue, requirement);
    default:
      return m.other;
  }
}

setGlobalMessage(russianIssueMessage);
