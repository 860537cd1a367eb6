/**
 * A compact Snowball Russian stemmer (https://snowballstem.org/algorithms/russian/stemmer.html). The
 * engine lemmatises with az's dictionary; this stemmer only joins the forms of words the dictionary
 * does not know (ламинат, ламината), where it beats az's own suffix guesses. The measured comparison
 * of the two is in the README (section «Движок анализа»).
 */
const VOWELS = 'аеиоуыэюя';

const byLength = (list: string[]) => [...list].sort((a, b) => b.length - a.length);
const PERFECTIVE_1 = byLength(['в', 'вши', 'вшись']);
const PERFECTIVE_2 = byLength(['ив', 'ивши', 'ившись', 'ыв', 'ывши', 'ывшись']);
const REFLEXIVE = byLength(['ся', 'сь']);
const ADJECTIVE = byLength(['ее', 'ие', 'ые', 'ое', 'ими', 'ыми', 'ей', 'ий', 'ый', 'ой', 'ем', 'им', 'ым', 'ом', 'его', 'ого', 'ему', 'ому', 'их', 'ых', 'ую', 'юю', 'ая', 'яя', 'ою', 'ею']);
const PARTICIPLE_1 = byLength(['ем', 'нн', 'вш', 'ющ', 'щ']);
const PARTICIPLE_2 = byLength(['ивш', 'ывш', 'ующ']);
const VERB_1 = byLength(['ла', 'на', 'ете', 'йте', 'ли', 'й', 'л', 'ем', 'н', 'ло', 'но', 'ет', 'ют', 'ны', 'ть', 'ешь', 'нно']);
const VERB_2 = byLength(['ила', 'ыла', 'ена', 'ейте', 'уйте', 'ите', 'или', 'ыли', 'ей', 'уй', 'ил', 'ыл', 'им', 'ым', 'ен', 'ило', 'ыло', 'ено', 'ят', 'ует', 'уют', 'ит', 'ыт', 'ены', 'ить', 'ыть', 'ишь', 'ую', 'ю']);
const NOUN = byLength(['а', 'ев', 'ов', 'ие', 'ье', 'е', 'иями', 'ями', 'ами', 'еи', 'ии', 'и', 'ией', 'ей', 'ой', 'ий', 'й', 'иям', 'ям', 'ием', 'ем', 'ам', 'ом', 'о', 'у', 'ах', 'иях', 'ях', 'ы', 'ь', 'ию', 'ью', 'ю', 'ия', 'ья', 'я']);

/** Removes the longest suffix of `list` lying in the region starting at `start`; group-1 suffixes need а/я before them. */
function strip(word: string, start: number, list: string[], afterAYa = false): string | null {
  for (const suffix of list) {
    if (!word.endsWith(suffix) || word.length - suffix.length < start) continue;
    if (afterAYa) {
      const before = word[word.length - suffix.length - 1];
      if (word.length - suffix.length - 1 < start || (before !== 'а' && before !== 'я')) continue;
    }
    return word.slice(0, -suffix.length);
  }
  return null;
}

const firstOf = (word: string, start: number, ...options: [string[], boolean][]) => {
  for (const [list, afterAYa] of options) {
    const result = strip(word, start, list, afterAYa);
    if (result !== null) return result;
  }
  return null;
};

export function snowballRussian(input: string): string {
  let word = input.toLowerCase().replace(/ё/g, 'е');
  const isVowel = (char: string) => VOWELS.includes(char);
  let rv = word.length;
  for (let i = 0; i < word.length; i++) if (isVowel(word[i])) { rv = i + 1; break; }
  const regionAfter = (from: number) => {
    for (let i = Math.max(from, 1); i < word.length; i++) if (!isVowel(word[i]) && isVowel(word[i - 1])) return i + 1;
    return word.length;
  };
  const r1 = regionAfter(0);
  const r2 = regionAfter(r1);

  // Step 1
  const perfective = firstOf(word, rv, [PERFECTIVE_1, true], [PERFECTIVE_2, false]);
  if (perfective !== null) word = perfective;
  else {
    word = strip(word, rv, REFLEXIVE) ?? word;
    const adjective = strip(word, rv, ADJECTIVE);
    if (adjective !== null) word = firstOf(adjective, rv, [PARTICIPLE_1, true], [PARTICIPLE_2, false]) ?? adjective;
    else word = firstOf(word, rv, [VERB_1, true], [VERB_2, false]) ?? strip(word, rv, NOUN) ?? word;
  }
  // Step 2
  if (word.endsWith('и') && word.length - 1 >= rv) word = word.slice(0, -1);
  // Step 3
  word = strip(word, r2, ['ость', 'ост']) ?? word;
  // Step 4
  if (word.endsWith('нн') && word.length - 2 >= rv) word = word.slice(0, -1);
  else {
    const superlative = strip(word, rv, ['ейше', 'ейш']);
    if (superlative !== null) word = superlative.endsWith('нн') ? superlative.slice(0, -1) : superlative;
    else if (word.endsWith('ь') && word.length - 1 >= rv) word = word.slice(0, -1);
  }
  return word;
}
