export function StepIndicator({ step }: { step: 1 | 2 }) {
  return (
    <ol className="steps" aria-label="Шаги создания проекта">
      <li className={step === 1 ? 'steps__item steps__item--current' : 'steps__item steps__item--done'} aria-current={step === 1 ? 'step' : undefined}>
        1. Проект
      </li>
      <li className={step === 2 ? 'steps__item steps__item--current' : 'steps__item'} aria-current={step === 2 ? 'step' : undefined}>
        2. Кампании
      </li>
    </ol>
  );
}
