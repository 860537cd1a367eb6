import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { formatCountOf, formatTokens } from '@contract/format';
import { frequencyLabels, runsPerMonth, SCHEDULE_FREQUENCIES, type AlertRules, type ScheduleFrequency, type ScheduledRun, type ScheduleState } from '@contract/monitoring.js';
import { LoadingLine } from '@/components/ui/PageStates';
import { alertRulesQueryOptions, deleteSchedule, linkTelegram, monitoringKeys, saveAlertRules, saveSchedule, scheduleQueryOptions, telegramQueryOptions, unlinkTelegram } from '@/lib/monitoring-api';
import { RUSSIAN_ZONES, utcOffset, zoneCity, zoneLabel } from '@/features/monitoring/time-zones';
import '@/features/monitoring/monitoring.css';

const WEEKDAYS = ['понедельник', 'вторник', 'среда', 'четверг', 'пятница', 'суббота', 'воскресенье'];
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const MONTH_DAYS = Array.from({ length: 28 }, (_, index) => index + 1);
/** Russia's zones first (the project's own is added when it is another). */
const ZONES = RUSSIAN_ZONES.map((entry) => entry.zone);
const runStatusLabels: Record<ScheduledRun['status'], string> = {
  due: 'в очереди',
  reading: 'читаем кабинет',
  auditing: 'идёт анализ',
  completed: 'готово',
  reminded: 'напоминание отправлено',
  skipped: 'пропущено',
  failed: 'не удалось',
};

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
const inZone = (iso: string, timeZone: string) => new Intl.DateTimeFormat('ru-RU', { timeZone, day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

/** The project page's «Проверки по расписанию» and «Уведомления»: when to re-audit, what to tell, where. */
export function ProjectCareSection({ projectId }: { projectId: string }) {
  const schedule = useQuery(scheduleQueryOptions(projectId));
  if (schedule.isPending) return <LoadingLine query={schedule} label="Загрузка расписания…" offlineText="Расписание загрузится, когда появится связь." />;
  if (!schedule.data) return null;
  return (
    <>
      <ScheduleCard projectId={projectId} state={schedule.data} />
      <AlertsCard projectId={projectId} />
    </>
  );
}

function ScheduleCard({ projectId, state }: { projectId: string; state: ScheduleState }) {
  const queryClient = useQueryClient();
  const [frequency, setFrequency] = useState<ScheduleFrequency>(state.schedule?.frequency ?? 'weekly');
  const [hour, setHour] = useState(state.schedule?.hour ?? 7);
  const [weekday, setWeekday] = useState(state.schedule?.weekday ?? 1);
  const [monthDay, setMonthDay] = useState(state.schedule?.month_day ?? 1);
  const [timeZone, setTimeZone] = useState(state.time_zone);
  const zones = ZONES.includes(state.time_zone) ? ZONES : [state.time_zone, ...ZONES];
  const onSaved = (next: ScheduleState | null) => {
    if (next) queryClient.setQueryData(monitoringKeys.schedule(projectId), next);
    else void queryClient.invalidateQueries({ queryKey: monitoringKeys.schedule(projectId) });
  };
  const save = useMutation({
    mutationFn: () => saveSchedule(projectId, { frequency, hour, weekday, month_day: monthDay, time_zone: timeZone }),
    onSuccess: (next) => {
      onSaved(next);
      toast.success('Расписание сохранено');
    },
    onError: (error) => toast.error(error.message),
  });
  const remove = useMutation({
    mutationFn: () => deleteSchedule(projectId),
    onSuccess: () => {
      onSaved(null);
      toast.success('Проверки по расписанию отключены');
    },
    onError: (error) => toast.error(error.message),
  });
  const runs = runsPerMonth(frequency);

  return (
    <section className="card project-care" aria-labelledby="schedule-title">
      <div className="card__header">
        <h2 className="card__title" id="schedule-title">
          Проверки по расписанию
        </h2>
      </div>
      {state.schedule?.next_run_at && (
        <p data-testid="schedule-next">
          Следующая проверка: <strong>{inZone(state.schedule.next_run_at, state.time_zone)}</strong> ({zoneCity(state.time_zone)}, {utcOffset(state.time_zone, new Date(state.schedule.next_run_at))})
        </p>
      )}
      <form
        className="form project-care__form"
        aria-label="Расписание проверок"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <div className="project-care__fields">
          <label className="field">
            <span className="field__label">Как часто</span>
            <select className="input" value={frequency} onChange={(event) => setFrequency(event.target.value as ScheduleFrequency)}>
              {SCHEDULE_FREQUENCIES.map((value) => (
                <option key={value} value={value}>
                  {frequencyLabels[value]}
                </option>
              ))}
            </select>
          </label>
          {frequency === 'weekly' && (
            <label className="field">
              <span className="field__label">День недели</span>
              <select className="input" value={weekday} onChange={(event) => setWeekday(Number(event.target.value))}>
                {WEEKDAYS.map((name, index) => (
                  <option key={name} value={index + 1}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {frequency === 'monthly' && (
            <label className="field">
              <span className="field__label">Число месяца</span>
              <select className="input" value={monthDay} onChange={(event) => setMonthDay(Number(event.target.value))}>
                {MONTH_DAYS.map((day) => (
                  <option key={day} value={day}>
                    {day}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="field">
            <span className="field__label">Во сколько</span>
            <select className="input" value={hour} onChange={(event) => setHour(Number(event.target.value))}>
              {HOURS.map((value) => (
                <option key={value} value={value}>
                  {hourLabel(value)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field__label">Часовой пояс проекта</span>
            <select className="input" value={timeZone} onChange={(event) => setTimeZone(event.target.value)}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zoneLabel(zone)}
                </option>
              ))}
            </select>
          </label>
        </div>
        {state.mode === 'audit' ? (
          <p className="project-care__cost" data-testid="schedule-cost">
            Одна проверка — {formatTokens(state.price_per_run)}, в месяц ≈ <strong>{formatTokens(state.price_per_run * runs)}</strong> ({formatCountOf(runs, ['проверка', 'проверки', 'проверок'])}).
            Кабинет перечитывается через API Директа, проверка списывается как обычный анализ; если токенов не хватит, она будет пропущена, а вы получите уведомление.
          </p>
        ) : (
          <p className="project-care__cost muted" data-testid="schedule-cost">
            Проект загружен из файлов: в назначенное время придёт напоминание выгрузить свежие отчёты. Токены не списываются.
          </p>
        )}
        <div className="form__row">
          <button type="submit" className="btn btn--primary" disabled={save.isPending} aria-busy={save.isPending}>
            Сохранить расписание
          </button>
          {state.schedule && (
            <button type="button" className="btn btn--ghost" disabled={remove.isPending} onClick={() => remove.mutate()}>
              Отключить
            </button>
          )}
        </div>
      </form>
      {state.runs.length > 0 && (
        <ul className="project-care__runs" aria-label="Последние проверки по расписанию">
          {state.runs.map((run) => (
            <li key={run.slot}>
              {inZone(run.slot, state.time_zone)} — {runStatusLabels[run.status]}
              {run.note && <span className="muted"> · {run.note}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AlertsCard({ projectId }: { projectId: string }) {
  const rules = useQuery(alertRulesQueryOptions(projectId));
  if (rules.isPending) return <LoadingLine query={rules} label="Загрузка правил уведомлений…" offlineText="Правила уведомлений загрузятся, когда появится связь." />;
  if (!rules.data) return null;
  return <AlertRulesForm projectId={projectId} initial={rules.data} />;
}

function AlertRulesForm({ projectId, initial }: { projectId: string; initial: AlertRules }) {
  const queryClient = useQueryClient();
  const [rules, setRules] = useState(initial);
  useEffect(() => setRules(initial), [initial]);
  const set = <K extends keyof AlertRules>(key: K, value: AlertRules[K]) => setRules((current) => ({ ...current, [key]: value }));
  const save = useMutation({
    mutationFn: () => saveAlertRules(projectId, rules),
    onSuccess: (next) => {
      queryClient.setQueryData(monitoringKeys.alertRules(projectId), next);
      toast.success('Правила уведомлений сохранены');
    },
    onError: (error) => toast.error(error.message),
  });
  const check = (key: 'new_leak' | 'rejected' | 'runout' | 'run_failed' | 'email' | 'telegram' | 'digest_only', label: string) => (
    <label className="checkbox">
      <input type="checkbox" checked={rules[key]} onChange={(event) => set(key, event.target.checked)} /> {label}
    </label>
  );
  const quietHour = (key: 'quiet_from' | 'quiet_to', label: string) => (
    <label className="field">
      <span className="field__label">{label}</span>
      <select className="input" value={rules[key] ?? ''} onChange={(event) => set(key, event.target.value === '' ? null : Number(event.target.value))}>
        <option value="">нет</option>
        {HOURS.map((value) => (
          <option key={value} value={value}>
            {hourLabel(value)}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <section className="card project-care" aria-labelledby="alerts-title">
      <div className="card__header">
        <h2 className="card__title" id="alerts-title">
          Уведомления
        </h2>
      </div>
      <form
        className="form project-care__form"
        aria-label="Правила уведомлений"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <fieldset className="project-care__group">
          <legend>О чём сообщать</legend>
          <div className="project-care__inline">
            {check('new_leak', 'Новая утечка от')}
            <input
              className="input input--small"
              type="number"
              min={0}
              step={100}
              aria-label="Порог новой утечки, ₽ в месяц"
              value={rules.new_leak_min_rub}
              onChange={(event) => set('new_leak_min_rub', Math.max(0, Math.round(Number(event.target.value) || 0)))}
            />
            <span>₽ в месяц</span>
          </div>
          {check('rejected', 'Объявление или быстрые ссылки отклонены модерацией')}
          <div className="project-care__inline">
            {check('runout', 'Кампания остановится или деньги закончатся в ближайшие')}
            <input
              className="input input--small"
              type="number"
              min={1}
              max={60}
              aria-label="Дней до остановки кампании или конца денег"
              value={rules.runout_days}
              onChange={(event) => set('runout_days', Math.min(60, Math.max(1, Math.round(Number(event.target.value) || 1))))}
            />
            <span>дн.</span>
          </div>
          {check('run_failed', 'Проверка по расписанию не удалась')}
        </fieldset>
        <fieldset className="project-care__group">
          <legend>Куда и когда</legend>
          <p className="muted">Колокольчик в приложении получает всё сразу. Письма и Telegram — по этим правилам.</p>
          {check('email', 'На почту')}
          {check('telegram', 'В Telegram')}
          <div className="project-care__fields">
            {quietHour('quiet_from', 'Тихие часы с')}
            {quietHour('quiet_to', 'до')}
          </div>
          {check('digest_only', 'Присылать всё одной сводкой в 09:00')}
        </fieldset>
        <div className="form__row">
          <button type="submit" className="btn btn--primary" disabled={save.isPending} aria-busy={save.isPending}>
            Сохранить уведомления
          </button>
        </div>
      </form>
      <TelegramLink />
    </section>
  );
}

function TelegramLink() {
  const queryClient = useQueryClient();
  const state = useQuery(telegramQueryOptions());
  const [code, setCode] = useState<{ link: string } | null>(null);
  const link = useMutation({ mutationFn: linkTelegram, onSuccess: setCode, onError: (error) => toast.error(error.message) });
  const unlink = useMutation({
    mutationFn: unlinkTelegram,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: monitoringKeys.telegram }),
    onError: (error) => toast.error(error.message),
  });
  if (!state.data?.available) return null;
  return (
    <div className="project-care__telegram">
      <h3>Telegram</h3>
      {state.data.linked ? (
        <p>
          Чат привязан.{' '}
          <button type="button" className="link-button" onClick={() => unlink.mutate()}>
            Отвязать
          </button>
        </p>
      ) : (
        <>
          {state.data.blocked && <p className="muted">Бот не может написать в привязанный чат (его заблокировали или удалили). Привяжите чат заново.</p>}
          {code ? (
            <p>
              Откройте{' '}
              <a className="link" href={code.link} target="_blank" rel="noreferrer noopener">
                ссылку на бота
              </a>{' '}
              и нажмите «Старт». Ссылка действует 30 минут.{' '}
              <button type="button" className="link-button" onClick={() => void queryClient.invalidateQueries({ queryKey: monitoringKeys.telegram })}>
                Я нажал «Старт»
              </button>
            </p>
          ) : (
            <button type="button" className="btn btn--secondary" disabled={link.isPending} onClick={() => link.mutate()}>
              Привязать Telegram
            </button>
          )}
        </>
      )}
    </div>
  );
}
