import { describe, expect, it } from 'vitest';
import { createLemmatizer, loadMorphology } from '../../../server/engines/semantic/lemmatizer.js';
import { snowballRussian } from '../../../server/engines/semantic/snowball-russian.js';
import { lemmaSample, scoreJoins } from '../../fixtures/analysis/lemma-sample.js';

/**
 * The comparison the README quotes (section «Движок анализа»): the Snowball stemmer, az's dictionary
 * alone, and the engine (az, with the stemmer for words the dictionary does not know), on the
 * hand-labelled sample. 37 words in 103 forms: 105 pairs of forms of the same word.
 */
describe('lemmatiser comparison on the hand-labelled sample', () => {
  const dictionaryWords = lemmaSample.filter((entry) => !entry.niche);
  const nicheWords = lemmaSample.filter((entry) => entry.niche);

  it('the stemmer splits dictionary words and merges homonymous stems', () => {
    const stems = (form: string) => [snowballRussian(form)];
    const all = scoreJoins(stems);
    expect([all.joined, all.samePairs, all.falseMerges]).toEqual([73, 105, 5]);
    expect(all.split).toEqual(expect.arrayContaining(['окна/окон', 'ребенок/дети', 'человек/люди', 'ковер/ковра', 'год/лет', 'пойти/пошел', 'дешевый/дешевле']));
    expect(all.merged).toEqual(['сталь/стал', 'сталь/стала', 'сталью/стал', 'сталью/стала', 'полкой/полком']);
    // Niche words: it joins all but one (керамогранит loses «ит» as a verb ending).
    expect(scoreJoins(stems, nicheWords)).toMatchObject({ joined: 9, samePairs: 10, split: ['керамогранит/керамогранита'] });
  });

  it('the dictionary alone is right on every dictionary word and joins no niche word', async () => {
    await loadMorphology();
    const dictionaryOnly = createLemmatizer({ unknownWords: 'keep' });
    const lemmas = (form: string) => dictionaryOnly.lemmatize(form).all;
    expect(scoreJoins(lemmas, dictionaryWords)).toMatchObject({ joined: 95, samePairs: 95, falseMerges: 0 });
    expect(scoreJoins(lemmas, nicheWords)).toMatchObject({ joined: 0, samePairs: 10, falseMerges: 0 });
    // Every dictionary form gets its hand-labelled lemma.
    for (const entry of dictionaryWords) for (const form of entry.forms) expect(dictionaryOnly.lemmatize(form).all, form).toContain(entry.lemma);
  });

  it('the engine takes the best of both: 104 of 105 pairs joined, no false merge', async () => {
    await loadMorphology();
    const engine = createLemmatizer();
    const score = scoreJoins((form) => engine.lemmatize(form).all);
    expect(score).toMatchObject({ joined: 104, samePairs: 105, falseMerges: 0, split: ['керамогранит/керамогранита'] });
    expect(engine.lemmatize('ламината').lemma).toBe(engine.lemmatize('ламинат').lemma);
    // A niche word never falls into a dictionary word it merely contains (az guesses электросамокат → самокат).
    expect(engine.lemmatize('электросамокат').all).not.toContain('самокат');
  });
});
