/**
 * A sum in roubles in Russian words, as an invoice writes it («Три тысячи четыреста девяносто рублей
 * 00 копеек»). Whole roubles up to 999 999 999 999; kopecks as digits, the way accountants write them.
 */
const ones = [
  ['', 'один', 'два', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'],
  ['', 'одна', 'две', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'],
];
const teens = ['десять', 'одиннадцать', 'двенадцать', 'тринадцать', 'четырнадцать', 'пятнадцать', 'шестнадцать', 'семнадцать', 'восемнадцать', 'девятнадцать'];
const tens = ['', '', 'двадцать', 'тридцать', 'сорок', 'пятьдесят', 'шестьдесят', 'семьдесят', 'восемьдесят', 'девяносто'];
const hundreds = ['', 'сто', 'двести', 'триста', 'четыреста', 'пятьсот', 'шестьсот', 'семьсот', 'восемьсот', 'девятьсот'];

/** [form for 1, for 2–4, for 5–20], e.g. рубль / рубля / рублей. */
type Forms = [string, string, string];
const scales: { forms: Forms; feminine: boolean }[] = [
  { forms: ['', '', ''], feminine: false },
  { forms: ['тысяча', 'тысячи', 'тысяч'], feminine: true },
  { forms: ['миллион', 'миллиона', 'миллионов'], feminine: false },
  { forms: ['миллиард', 'миллиарда', 'миллиардов'], feminine: false },
];

export function plural(count: number, forms: Forms): string {
  const lastTwo = count % 100;
  const last = count % 10;
  if (lastTwo >= 11 && lastTwo <= 19) return forms[2];
  if (last === 1) return forms[0];
  if (last >= 2 && last <= 4) return forms[1];
  return forms[2];
}

function triad(value: number, feminine: boolean): string[] {
  const words = [hundreds[Math.floor(value / 100)]!];
  const rest = value % 100;
  if (rest >= 10 && rest < 20) words.push(teens[rest - 10]!);
  else words.push(tens[Math.floor(rest / 10)]!, ones[feminine ? 1 : 0]![rest % 10]!);
  return words.filter(Boolean);
}

export function amountInWords(kopecks: number): string {
  const roubles = Math.floor(kopecks / 100);
  const cents = kopecks % 100;
  const words: string[] = [];
  if (roubles === 0) words.push('ноль');
  for (let scale = scales.length - 1; scale >= 0; scale -= 1) {
    const part = Math.floor(roubles / 1000 ** scale) % 1000;
    if (part === 0) continue;
    words.push(...triad(part, scales[scale]!.feminine));
    if (scale > 0) words.push(plural(part, scales[scale]!.forms));
  }
  const text = `${words.join(' ')} ${plural(roubles, ['рубль', 'рубля', 'рублей'])} ${String(cents).padStart(2, '0')} ${plural(cents, ['копейка', 'копейки', 'копеек'])}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** 3490 → «3 490,00» (a narrow no-break space between thousands, as Russian documents group them). */
export function formatRoubles(kopecks: number): string {
  const roubles = Math.floor(kopecks / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  return `${roubles},${String(kopecks % 100).padStart(2, '0')}`;
}
