/**
 * Places in text: which cities, regions and countries a query, keyword or region setting names, by
 * lemma and by the dictionary's variants, so «спб», «питер», «санкт-петербург» and «петербурге» are one
 * place (`spb`). The one place where a project's region text and a group's region become place keys.
 *
 * A longer name wins over the shorter one inside it: «нижний новгород» is Nizhny Novgorod, not
 * Veliky Novgorod; «краснодарский край» is the region, «краснодарский» alone the city.
 */
import type { Lemmatizer } from '../lemmatizer.js';
import { parseWords, type PhraseWord } from '../phrase.js';
import { places, type Place } from './places.js';

export interface PlaceMatch {
  place: Place;
  /** The dictionary name that matched («питер»). */
  name: string;
  /** The words as written in the text («питере»). */
  typed: string;
}

export interface Gazetteer {
  /** Places named in `words`, each once, in order of appearance. */
  find(words: PhraseWord[]): PlaceMatch[];
  /** Place keys of a targeting text («Санкт-Петербург и ЛО», «Москва»), with what they imply (see `expand`). */
  homeOf(texts: string[]): Set<string>;
  /** A city brings its region; a region brings its capital: advertisers in one serve the other. */
  expand(keys: Iterable<string>): Set<string>;
}

const byKey = new Map(places.map((place) => [place.key, place]));

interface Name {
  place: Place;
  text: string;
  words: PhraseWord[];
}

const significant = (words: PhraseWord[]) => words.filter((word) => !word.stop);

function sameWord(a: PhraseWord, b: PhraseWord): boolean {
  if (a.form === b.form) return true;
  for (const lemma of a.lemmas) if (b.lemmas.includes(lemma)) return true;
  return false;
}

const cache = new WeakMap<Lemmatizer, Gazetteer>();

export function gazetteerFor(lemmatizer: Lemmatizer): Gazetteer {
  let gazetteer = cache.get(lemmatizer);
  if (!gazetteer) {
    gazetteer = createGazetteer(lemmatizer);
    cache.set(lemmatizer, gazetteer);
  }
  return gazetteer;
}

function createGazetteer(lemmatizer: Lemmatizer): Gazetteer {
  // Names by every form and lemma of their first word; longest names first, so they are tried first.
  const byFirst = new Map<string, Name[]>();
  for (const place of places) {
    for (const text of place.names) {
      const words = significant(parseWords(text, lemmatizer));
      if (words.length === 0) continue;
      const name: Name = { place, text, words };
      for (const key of new Set([words[0].form, ...words[0].lemmas])) {
        const list = byFirst.get(key) ?? [];
        list.push(name);
        byFirst.set(key, list);
      }
    }
  }
  for (const list of byFirst.values()) list.sort((a, b) => b.words.length - a.words.length);

  /** Whether some place name starts with this word (by its form or a lemma). */
  const startsName = (word: PhraseWord) => byFirst.has(word.form) || word.lemmas.some((lemma) => byFirst.has(lemma));

  const find = (all: PhraseWord[]): PlaceMatch[] => {
    // Most phrases name no place: nothing to allocate for them.
    if (!all.some((word) => !word.stop && startsName(word))) return [];
    const words = significant(all);
    const found: PlaceMatch[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < words.length; ) {
      // Most words start no place name: nothing to collect or sort for them.
      if (!startsName(words[i])) {
        i++;
        continue;
      }
      const candidates = new Set<Name>();
      for (const key of [words[i].form, ...words[i].lemmas]) for (const name of byFirst.get(key) ?? []) candidates.add(name);
      const match = [...candidates]
        .sort((a, b) => b.words.length - a.words.length)
        .find((name) => name.words.every((word, offset) => i + offset < words.length && sameWord(word, words[i + offset])));
      if (!match) {
        i++;
        continue;
      }
      if (!seen.has(match.place.key)) {
        seen.add(match.place.key);
        found.push({ place: match.place, name: match.text, typed: words.slice(i, i + match.words.length).map((word) => word.form).join(' ') });
      }
      i += match.words.length;
    }
    return found;
  };

  const expand = (keys: Iterable<string>): Set<string> => {
    const result = new Set<string>();
    for (const key of keys) {
      result.add(key);
      const place = byKey.get(key);
      if (place?.region) result.add(place.region);
      if (place?.capital) result.add(place.capital);
    }
    return result;
  };

  return {
    find,
    expand,
    homeOf: (texts) => expand(texts.flatMap((text) => find(parseWords(text, lemmatizer)).map((match) => match.place.key))),
  };
}

/** Every word of a one-word place name («москва», «спб», «казанский»): topics leave place names out. */
export const placeWords: ReadonlySet<string> = new Set(
  places.filter((place) => !place.ambiguous).flatMap((place) => place.names.filter((name) => !/[\s-]/.test(name))),
);
