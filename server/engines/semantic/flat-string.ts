/**
 * One flat, shared copy of a string. A template literal builds its result as a tree of pieces (a V8
 * ConsString: ~32 bytes per piece on top of the text), and equal texts built apart are separate
 * objects. For the strings the engines keep per keyword or ad on a big account (verdict reasons,
 * suggestion ids and reasons, the suggestion id of each intersection) that is ~100 bytes each, over a
 * million times.
 */
const seen = new Map<string, string>();
/** Texts remembered for sharing; past this many the memory starts over (a thread runs analysis after analysis). */
const SEEN_MAX = 100_000;

export function flatString(text: string): string {
  const known = seen.get(text);
  if (known !== undefined) return known;
  if (seen.size >= SEEN_MAX) seen.clear();
  // Reading a character flattens a ConsString into one piece (V8 then drops the tree at the next
  // collection). Cheaper than internalising the text, which was a measurable share of a big run.
  text.charCodeAt(0);
  seen.set(text, text);
  return text;
}
