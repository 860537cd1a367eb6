/**
 * Yandex region ids (Direct `RegionIds`, the Yandex regions tree) of the country and the largest cities
 * and their regions, with their place keys (places.ts): what an account read through the API targets.
 * A small hand-made table (ids as Direct and Yandex's own services use them: 225 Россия, 1 Москва и
 * область, 213 Москва, 2 Санкт-Петербург, 10174 Санкт-Петербург и Ленинградская область, …); an id not
 * in it is never judged (no finding rests on a region we cannot name).
 */
export interface DirectRegion {
  name: string;
  /** Place keys the region covers (a city, or a region with its capital); none for the whole country. */
  places: string[];
  /** The whole of Russia: covers every place. */
  country?: boolean;
}

export const directRegions: ReadonlyMap<number, DirectRegion> = new Map([
  [225, { name: 'Россия', places: [], country: true }],
  [1, { name: 'Москва и область', places: ['moskva', 'moskovskaya-obl'] }],
  [213, { name: 'Москва', places: ['moskva'] }],
  [2, { name: 'Санкт-Петербург', places: ['spb'] }],
  [10174, { name: 'Санкт-Петербург и Ленинградская область', places: ['spb', 'leningradskaya-obl'] }],
  [54, { name: 'Екатеринбург', places: ['ekaterinburg'] }],
  [65, { name: 'Новосибирск', places: ['novosibirsk'] }],
  [43, { name: 'Казань', places: ['kazan'] }],
  [35, { name: 'Краснодар', places: ['krasnodar'] }],
  [39, { name: 'Ростов-на-Дону', places: ['rostov'] }],
  [51, { name: 'Самара', places: ['samara'] }],
  [172, { name: 'Уфа', places: ['ufa'] }],
  [56, { name: 'Челябинск', places: ['chelyabinsk'] }],
  [66, { name: 'Омск', places: ['omsk'] }],
  [62, { name: 'Красноярск', places: ['krasnoyarsk'] }],
  [50, { name: 'Пермь', places: ['perm'] }],
  [193, { name: 'Воронеж', places: ['voronezh'] }],
  [38, { name: 'Волгоград', places: ['volgograd'] }],
]);
