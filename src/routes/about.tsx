import { Link, createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/about')({
  component: AboutRoute,
});

function AboutRoute() {
  return (
    <article className="page page--narrow about">
      <h1>О сервисе Reklama Lab</h1>
      <p className="lead">Автоматизация работы с рекламными системами и рост ROI кампаний с помощью ИИ.</p>
      <p>
        Reklama Lab проверяет кампании Яндекс Директа, Google Ads и VK Рекламы так, как это делает опытный специалист: находит
        расход без конверсий, пересечения и дубли ключевых фраз, недостающие минус-слова, слабые объявления и посадочные
        страницы, которые не отвечают запросу. Каждая находка показывает цифры, на которых основана, и конкретное исправление.
      </p>
      <h2>Как это работает</h2>
      <ol>
        <li>Создайте проект и загрузите выгрузку кампаний из рекламного кабинета.</li>
        <li>Выберите кампании и виды анализа — стоимость в токенах видна до запуска.</li>
        <li>Следите за ходом анализа и получите отчёт: оценки, проблемы по важности и файл с исправлениями для загрузки в кабинет.</li>
      </ol>
      <h2>Для команд</h2>
      <p>
        Работайте вместе в организации: владелец приглашает коллег по коду, проекты и история анализов общие, а баланс токенов
        виден в шапке. Приложение можно установить на телефон или ноутбук — сохранённые данные открываются и без сети.
      </p>
      <p className="about__links">
        <a href="/agreement.pdf" className="link" target="_blank" rel="noopener noreferrer">
          Пользовательское соглашение
        </a>
        <a href="/policy.pdf" className="link" target="_blank" rel="noopener noreferrer">
          Политика обработки персональных данных
        </a>
        <a href="/oferta.pdf" className="link" target="_blank" rel="noopener noreferrer">
          Публичная оферта
        </a>
      </p>
      <Link to="/projects" className="btn btn--primary">
        К проектам
      </Link>
    </article>
  );
}
