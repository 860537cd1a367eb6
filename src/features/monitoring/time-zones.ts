/**
 * Time zones as a person in Russia reads them: «Москва (UTC+3)», not «Europe/Moscow». The server keeps the
 * IANA name (it is what the schedule is computed in); only the words shown change.
 */

/** Russia's zones, west to east, with the city people name them by. */
export const RUSSIAN_ZONES: readonly { zone: string; city: string }[] = [
  { zone: 'Europe/Kaliningrad', city: 'Калининград' },
  { zone: 'Europe/Moscow', city: 'Москва' },
  { zone: 'Europe/Samara', city: 'Самара' },
  { zone: 'Asia/Yekaterinburg', city: 'Екатеринбург' },
  { zone: 'Asia/Omsk', city: 'Омск' },
  { zone: 'Asia/Novosibirsk', city: 'Новосибирск' },
  { zone: 'Asia/Krasnoyarsk', city: 'Красноярск' },
  { zone: 'Asia/Irkutsk', city: 'Иркутск' },
  { zone: 'Asia/Yakutsk', city: 'Якутск' },
  { zone: 'Asia/Vladivostok', city: 'Владивосток' },
  { zone: 'Asia/Magadan', city: 'Магадан' },
  { zone: 'Asia/Kamchatka', city: 'Камчатка' },
];

/** «UTC+3», «UTC+5:30», «UTC» at that instant (a zone with summer time has two). */
export function utcOffset(timeZone: string, at: Date = new Date()): string {
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortOffset' }).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
    return name.replace('GMT', 'UTC');
  } catch {
    return '';
  }
}

/** The city of a Russian zone; for any other, its IANA place with spaces («America/New_York» → «New York»). */
export function zoneCity(timeZone: string): string {
  return RUSSIAN_ZONES.find((entry) => entry.zone === timeZone)?.city ?? (timeZone.split('/').pop() ?? timeZone).replace(/_/g, ' ');
}

/** «Москва (UTC+3)»: the select's option. */
export function zoneLabel(timeZone: string, at: Date = new Date()): string {
  const offset = utcOffset(timeZone, at);
  return offset ? `${zoneCity(timeZone)} (${offset})` : zoneCity(timeZone);
}
