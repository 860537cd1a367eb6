import { describe, expect, it } from 'vitest';
import { stemEnglish } from '../../../server/engines/semantic/lemmatizer.js';
import { lemmatizer } from './helpers.js';
import { snowballRussian } from '../../../server/engines/semantic/snowball-russian.js';

// word, Snowball Russian stem, az lemmas (the comparison in the README, «Движок анализа»; measured in lemmatizer-comparison.test.ts)
const table: [string, string, string[]][] = [
  ['окна', 'окн', ['окно']],
  ['окон', 'окон', ['окно']],
  ['шуба', 'шуб', ['шуба']],
  ['шубы', 'шуб', ['шуба']],
  ['норковая', 'норков', ['норковый']],
  ['авто', 'авт', ['авто']],
  ['автобус', 'автобус', ['автобус']],
  ['стали', 'стал', ['стать', 'сталь']],
  ['сталь', 'стал', ['сталь']],
  ['стал', 'стал', ['стать']],
  ['дешево', 'дешев', ['дешевый', 'дешево']],
  ['дешевые', 'дешев', ['дешевый']],
  ['елки', 'елк', ['елка']],
  ['купил', 'куп', ['купить']],
  ['купить', 'куп', ['купить']],
  ['люди', 'люд', ['человек']],
  ['дети', 'дет', ['ребенок']],
  ['пошел', 'пошел', ['пойти']],
  ['идти', 'идт', ['идти']],
  ['вакансии', 'ваканс', ['вакансия']],
  ['красивейший', 'красив', ['красивый']],
];

describe('lemmatisation (az, OpenCorpora) compared with a Snowball stemmer', () => {
  it.each(table)('%s: stemmer %s, az %j', async (word, stem, lemmas) => {
    const l = await lemmatizer();
    expect(snowballRussian(word)).toBe(stem);
    expect(l.lemmatize(word).all).toEqual(lemmas);
  });

  it('joins forms the stemmer splits and splits words the stemmer merges', async () => {
    const l = await lemmatizer();
    expect(snowballRussian('окна')).not.toBe(snowballRussian('окон'));
    expect(l.lemmatize('окна').lemma).toBe(l.lemmatize('окон').lemma);
    expect(snowballRussian('сталь')).toBe(snowballRussian('стал'));
    expect(l.lemmatize('сталь').all).not.toContain('стать');
  });

  it('finds proper nouns from lower case and joins the forms of unknown words by their stem', async () => {
    const l = await lemmatizer();
    expect(l.lemmatize('москве').lemma).toBe('москва');
    expect(l.lemmatize('казани').lemma).toBe('казань');
    // Not in the dictionary: the Snowball stem, the same for every form (az would guess «авитый»).
    expect(l.lemmatize('авито').lemma).toBe('авит');
    expect(l.lemmatize('ламината').all).toEqual(['ламинат']);
    expect(l.lemmatize('ламинатом').all).toEqual(['ламинат']);
    expect(l.lemmatize('б/у').lemma).toBe('б/у');
  });

  it('lower-cases and lightly stems English', async () => {
    const l = await lemmatizer();
    expect(l.lemmatize('iphones').lemma).toBe('iphone');
    expect(stemEnglish('batteries')).toBe('battery');
    expect(stemEnglish('boxes')).toBe('box');
    expect(stemEnglish('glass')).toBe('glass');
    expect(stemEnglish('repairing')).toBe('repair');
  });

  it('memoises words and measures the raw speed', async () => {
    const l = await lemmatizer();
    l.lemmatize('окна');
    const size = l.vocabularySize;
    l.lemmatize('окна');
    expect(l.vocabularySize).toBe(size);
    expect(l.measureRawSpeed(['окна', 'шубы', 'купить'])).toBeGreaterThan(0);
  });
});
