import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
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

type Options = readonly (readonly [value: string | number, label: string])[];
const FREQUENCY_OPTIONS: Options = SCHEDULE_FREQUENCIES.map((value) => [value, frequencyLabels[value]]);
const WEEKDAY_OPTIONS: Options = WEEKDAYS.map((name, index) => [index + 1, name]);
const MONTH_DAY_OPTIONS: Options = MONTH_DAYS.map((day) => [day, String(day)]);
const HOUR_OPTIONS: Options = HOURS.map((hour) => [hour, hourLabel(hour)]);

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

interface CareCardProps {
  id: string;
  title: string;
  /** Above the form. */
  lead?: ReactNode;
  formLabel: string;
  onSubmit: () => void;
  /** The form's fields and buttons. */
  children: ReactNode;
  /** Below the form. */
  after?: ReactNode;
}

/** One of the two cards: its title and its form, which saves on submit. */
function CareCard({ id, title, lead, formLabel, onSubmit, children, after }: CareCardProps) {
  return (
    <section className="card project-care" aria-labelledby={id}>
      <div className="card__header">
        <h2 className="card__title" id={id}>
          {title}
        </h2>
      </div>
      {lead}
      <form
        className="form project-care__form"
        aria-label={formLabel}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
      {after}
    </section>
  );
}

/** A labelled drop-down of the cards' forms. */
function SelectField({ label, value, options, onChange }: { label: string; value: string | number; options: Options; onChange: (value: string) => void }) {
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <select className="input" value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </label>
  );
}
interface ScheduleChoice {
  frequency: ScheduleFrequency;
  hour: number;
  weekday: number;
  month_day: number;
  time_zone: string;
}

function ScheduleCard({ projectId, state }: { projectId: string; state: ScheduleState }) {
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<ScheduleChoice>({
    frequency: state.schedule?.frequency ?? 'weekly',
    hour: state.schedule?.hour ?? 7,
    weekday: state.schedule?.weekday ?? 1,
    month_day: state.schedule?.month_day ?? 1,
    time_zone: state.time_zone,
  });
  const onSaved = (next: ScheduleState | null) => {
    if (next) queryClient.setQueryData(monitoringKeys.schedule(projectId), next);
    else void queryClient.invalidateQueries({ queryKey: monitoringKeys.schedule(projectId) });
  };
  const save = useMutation({
    mutationFn: () => saveSchedule(projectId, choice),
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

  return (
    <CareCard
      id="schedule-title"
      title="Проверки по расписанию"
      lead={
        state.schedule?.next_run_at && (
          <p data-testid="schedule-next">
            Следующая проверка: <strong>{inZone(state.schedule.next_run_at, state.time_zone)}</strong> ({zoneCity(state.time_zone)}, {utcOffset(state.time_zone, new Date(state.schedule.next_run_at))})
          </p>
        )
      }
      formLabel="Расписание проверок"
      onSubmit={() => save.mutate()}
      after={<ScheduledRuns state={state} />}
    >
      <ScheduleFields choice={choice} projectZone={state.time_zone} onChange={(change) => setChoice((current) => ({ ...current, ...change }))} />
      <ScheduleCost state={state} runs={runsPerMonth(choice.frequency)} />
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
    </CareCard>
  );
}

/** How often, which day (of the week or of the month), at what hour and in which zone. */
function ScheduleFields({ choice, projectZone, onChange }: { choice: ScheduleChoice; projectZone: string; onChange: (change: Partial<ScheduleChoice>) => void }) {
  const zones = ZONES.includes(projectZone) ? ZONES : [projectZone, ...ZONES];
  return (
    <div className="project-care__fields">
      <SelectField label="Как часто" value={choice.frequency} options={FREQUENCY_OPTIONS} onChange={(value) => onChange({ frequency: value as ScheduleFrequency })} />
      {choice.frequency === 'weekly' && <SelectField label="День недели" value={choice.weekday} options={WEEKDAY_OPTIONS} onChange={(value) => onChange({ weekday: Number(value) })} />}
      {choice.frequency === 'monthly' && <SelectField label="Число месяца" value={choice.month_day} options={MONTH_DAY_OPTIONS} onChange={(value) => onChange({ month_day: Number(value) })} />}
      <SelectField label="Во сколько" value={choice.hour} options={HOUR_OPTIONS} onChange={(value) => onChange({ hour: Number(value) })} />
      <SelectField label="Часовой пояс проекта" value={choice.time_zone} options={zones.map((zone) => [zone, zoneLabel(zone)])} onChange={(value) => onChange({ time_zone: value })} />
    </div>
  );
}

/** What the schedule costs a month (an API project), or that a file project is only reminded. */
function ScheduleCost({ state, runs }: { state: ScheduleState; runs: number }) {
  if (state.mode !== 'audit') {
    return (
      <p className="project-care__cost muted" data-testid="schedule-cost">
        Проект загружен из файлов: в назначенное время придёт напоминание выгрузить свежие отчёты. Токены не списываются.
      </p>
    );
  }
  return (
    <p className="project-care__cost" data-testid="schedule-cost">
      Одна проверка — {formatTokens(state.price_per_run)}, в месяц ≈ <strong>{formatTokens(state.price_per_run * runs)}</strong> ({formatCountOf(runs, ['проверка', 'проверки', 'проверок'])}).
      Кабинет перечитывается через API Директа, проверка списывается как обычный анализ; если токенов не хватит, она будет пропущена, а вы получите уведомление.
    </p>
  );
}

function ScheduledRuns({ state }: { state: ScheduleState }) {
  if (state.runs.length === 0) return null;
  return (
    <ul className="project-care__runs" aria-label="Последние проверки по расписанию">
      {state.runs.map((run) => (
        <li key={run.slot}>
          {inZone(run.slot, state.time_zone)} — {runStatusLabels[run.status]}
          {run.note && <span className="muted"> · {run.note}</span>}
        </li>
      ))}
    </ul>
  );
}

function AlertsCard({ projectId }: { projectId: string }) {
  const rules = useQuery(alertRulesQueryOptions(projectId));
  if (rules.isPending) return <LoadingLine query={rules} label="Загрузка правил уведомлений…" offlineText="Правила уведомлений загрузятся, когда появится связь." />;
  if (!rules.data) return null;
  return <AlertRulesForm projectId={projectId} initial={rules.data} />;
}

/** A rule's box with its threshold after it: «Новая утечка от [5000] ₽ в месяц». */
function ThresholdRule({ check, ariaLabel, value, min, max, step, unit, onChange }: { check: ReactNode; ariaLabel: string; value: number; min: number; max?: number; step?: number; unit: string; onChange: (value: number) => void }) {
  return (
    <div className="project-care__inline">
      {check}
      {/* The number and its unit wrap as one: a unit alone on the next line reads as a stray label. */}
      <span className="project-care__amount">
        <input className="input input--small" type="number" min={min} max={max} step={step} aria-label={ariaLabel} value={value} onChange={(event) => onChange(Math.min(max ?? Infinity, Math.max(min, Math.round(Number(event.target.value) || min))))} />
        <span>{unit}</span>
      </span>
    </div>
  );
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
    <SelectField label={label} value={rules[key] ?? ''} options={[['', 'нет'], ...HOUR_OPTIONS]} onChange={(value) => set(key, value === '' ? null : Number(value))} />
  );

  return (
    <CareCard id="alerts-title" title="Уведомления" formLabel="Правила уведомлений" onSubmit={() => save.mutate()} after={<TelegramLink />}>
      <fieldset className="project-care__group">
        <legend>О чём сообщать</legend>
        <ThresholdRule check={check('new_leak', 'Новая утечка от')} ariaLabel="Порог новой утечки, ₽ в месяц" value={rules.new_leak_min_rub} min={0} step={100} unit="₽ в месяц" onChange={(value) => set('new_leak_min_rub', value)} />
        {check('rejected', 'Объявление или быстрые ссылки отклонены модерацией')}
        <ThresholdRule check={check('runout', 'Кампания остановится или деньги закончатся в ближайшие')} ariaLabel="Дней до остановки кампании или конца денег" value={rules.runout_days} min={1} max={60} unit="дн." onChange={(value) => set('runout_days', value)} />
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
    </CareCard>
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
