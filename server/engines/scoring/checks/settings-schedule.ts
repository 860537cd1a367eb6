/**
 * Schedule settings (issue 22). A weekday the schedule leaves off in every hour is «off»; the account's
 * day-by-day statistics (every campaign's, this one's included) say which weekdays bring conversions.
 * - off on weekdays that bring a share of the account's conversions (`scheduleOffConversionShare`);
 * - off all weekend, said once, and only where the conversions by weekday have not said it already.
 * Direct's reports give days, not hours, in what we read: the hours of a day are not judged.
 */
import { share } from '../../../../contract/analysis-results.js';
import { formatShare } from '../../../../contract/evidence-format.js';
import type { ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';
import { weekdaysPhrase } from './settings-common.js';

const SATURDAY = 5;
const SUNDAY = 6;

export function runScheduleChecks(context: ScoringContext): void {
  const byWeekday = accountConversionsByWeekday(context);
  const total = byWeekday.reduce((sum, count) => sum + count, 0);
  for (const campaign of context.account.campaigns) {
    const schedule = campaign.campaign.schedule;
    if (!schedule) continue;
    const offDays = schedule.days.flatMap((hours, day) => (hours.every((coefficient) => coefficient === 0) ? [day] : []));
    if (offDays.length === 0 || offDays.length === 7) continue;
    const name = campaign.campaign.name;
    const lost = offDays.reduce((sum, day) => sum + byWeekday[day]!, 0);
    const threshold = context.settings.scheduleOffConversionShare;
    const convertingOff = total > 0 && lost > 0 && lost / total >= threshold;
    if (convertingOff) {
      const days = offDays.filter((day) => byWeekday[day]! > 0);
      context.findings.push(makeFinding(checks.settingsScheduleOffConvertingDays, campaign.ref, {
        explanation: `Кампания «${name}» не показывается ${weekdaysPhrase(offDays)}, а на эти дни недели пришлось ${formatShare(lost / total)} конверсий аккаунта за период (${lost} из ${total}).`,
        fix: `Включите показы ${weekdaysPhrase(days)} хотя бы с коэффициентом 50 % и через 2 недели сравните цену конверсии в эти дни с остальными.`,
        evidence: [
          { label: 'Доля конверсий аккаунта в выключенные дни', value: share(lost / total), threshold: share(threshold), setting: 'scheduleOffConversionShare', unit: 'share' },
          { label: 'Конверсий в эти дни', value: lost, unit: 'conversions' },
        ],
      }));
    }
    const weekendOff = offDays.includes(SATURDAY) && offDays.includes(SUNDAY);
    if (weekendOff && !convertingOff) {
      context.findings.push(makeFinding(checks.settingsScheduleWeekendOff, campaign.ref, {
        explanation: `Кампания «${name}» не показывается ни в субботу, ни в воскресенье: в выходные по её запросам показываются только конкуренты.`,
        fix: 'Если заявки в выходные принимают — включите показы в субботу и воскресенье с коэффициентом 50 % и через 2 недели сравните цену конверсии с буднями. Если не принимают — расписание верное.',
        evidence: [{ label: 'Выходных дней без показов', value: 2, threshold: 2, unit: 'count' }],
      }));
    }
  }
}

/** Conversions of the whole account per weekday (Monday first) from the campaigns' day-by-day statistics. */
function accountConversionsByWeekday(context: ScoringContext): number[] {
  const byWeekday = Array<number>(7).fill(0);
  for (const campaign of context.account.campaigns) {
    for (const day of campaign.campaign.dailyStats ?? []) {
      const time = Date.parse(`${day.date}T00:00:00Z`);
      if (!Number.isFinite(time) || day.stats.conversions <= 0) continue;
      byWeekday[(new Date(time).getUTCDay() + 6) % 7]! += day.stats.conversions;
    }
  }
  return byWeekday;
}
