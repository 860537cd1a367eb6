/**
 * One flat, shared copy of a string. A template literal builds its result as a tree of pieces (a V8
 * ConsString: ~32 bytes per piece on top of the text), and equal texts built apart are separate
 * objects. For the strings the engines keep per keyword or ad on a big account (verdict reasons,
 * suggestion ids and reasons, the suggestion id of each intersection) that is ~100 bytes each, over a
 * million times.
 */
export function flatString(text: string): string {
  // A computed property key is internalised: V8 keeps one flat copy per distinct text and hands it back.
  for (const key in { [text]: 0 }) return key;
  return text;
}
