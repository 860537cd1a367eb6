import { Link } from '@tanstack/react-router';
import { adPlatformLabels } from '@contract/campaigns.js';
import type { ProjectSummary } from '@contract/projects.js';
import type { ProjectSort } from '@/lib/projects-api';
import { formatCount, formatDate, pluralRu } from '@/features/projects/format';
import { MoneyLine } from '@/components/analysis/MoneyLine';
import { ProjectsPending, SearchSortBar, projectsPending } from '@/components/ui/SearchSortBar';
import { useAnalysisMoney } from '@/lib/analysis-results';

export const SORT_LABELS: Record<ProjectSort, string> = {
  updated: 'Сначала обновлённые',
  created: 'Сначала новые',
  name: 'По названию',
};

export const EMPTY_LIST_TITLE = 'Проектов пока нет';
export const NOTHING_FOUND_TITLE = 'Ничего не найдено';

interface Props {
  projects: ProjectSummary[] | undefined;
  loading: boolean;
  /** Offline with no saved list (of this search): said instead of a spinner that would never stop. */
  offline?: boolean;
  error: string | null;
  search: string;
  sort: ProjectSort;
  onSearchChange: (search: string) => void;
  onSortChange: (sort: ProjectSort) => void;
  onRetry: () => void;
}

/** The project list: search, sort, one card per project with its counts and last analysis. */
export function ProjectListScreen({ projects, loading, offline = false, error, search, sort, onSearchChange, onSortChange, onRetry }: Props) {
  return (
    <section className="page projects">
      <div className="projects__bar">
        <h1 className="projects__title">Проекты</h1>
        <div className="projects__bar-actions">
          <Link to="/board" className="btn btn--secondary">
            Сводка
          </Link>
          <Link to="/projects/create/step1" className="btn btn--primary">
            Новый проект
          </Link>
        </div>
      </div>
      <SearchSortBar className="projects__filters" search={search} onSearchChange={onSearchChange} sort={{ value: sort, labels: SORT_LABELS, onChange: onSortChange, className: 'projects__sort' }} />
      {projectsPending({ projects, loading, error }) ? (
        <ProjectsPending offline={offline} error={error} onRetry={onRetry} />
      ) : projects && projects.length === 0 ? (
        search ? (
          <div className="state-card">
            <h2>{NOTHING_FOUND_TITLE}</h2>
            <p className="muted">Нет проектов, в названии которых есть «{search}».</p>
          </div>
        ) : (
          <div className="state-card">
            <h2>{EMPTY_LIST_TITLE}</h2>
            <p className="muted">Создайте проект: укажите сайт и загрузите выгрузку кампаний из Яндекс Директа или Google Ads.</p>
            <Link to="/projects/create/step1" className="btn btn--primary">
              Создать первый проект
            </Link>
          </div>
        )
      ) : (
        <ul className="project-cards" aria-label="Список проектов">
          {projects?.map((project) => <ProjectCard key={project.id} project={project} />)}
        </ul>
      )}
    </section>
  );
}

function ProjectCard({ project }: { project: ProjectSummary }) {
  const { counts } = project;
  return (
    <li className="card project-card">
      <div className="project-card__head">
        <Link to="/projects/$id" params={{ id: project.id }} className="project-card__name">
          {project.name}
        </Link>
        <span className="badge badge--muted">{adPlatformLabels[project.platform]}</span>
      </div>
      <p className="project-card__site muted">{project.site_url.replace(/^https?:\/\//, '')}</p>
      <p className="project-card__counts">
        {formatCount(counts.campaigns)} {pluralRu(counts.campaigns, ['кампания', 'кампании', 'кампаний'])} · {formatCount(counts.ads)}{' '}
        {pluralRu(counts.ads, ['объявление', 'объявления', 'объявлений'])} · {formatCount(counts.keywords)}{' '}
        {pluralRu(counts.keywords, ['фраза', 'фразы', 'фраз'])}
      </p>
      <div className="project-card__foot">
        <LastAnalysis project={project} />
        <span className="muted">Обновлён {formatDate(project.updated_at)}</span>
      </div>
    </li>
  );
}

/** The last analysis' «Теряете ≈ X ₽ в месяц» when it has one (older analyses show the score alone). */
function LastAnalysisMoney({ analysisId, given }: { analysisId: string; given: number | null | undefined }) {
  const perMonth = useAnalysisMoney(analysisId, given);
  if (perMonth === null) return null;
  return (
    <>
      <br />
      <MoneyLine perMonth={perMonth} />
    </>
  );
}

function LastAnalysis({ project }: { project: ProjectSummary }) {
  const last = project.last_analysis;
  if (!last) return <span className="muted">Анализов ещё не было</span>;
  return (
    <span className="project-card__score" title={`Анализ от ${formatDate(last.created_at)}`}>
      Последний анализ: <strong>{last.score === null ? '—' : `${Math.round(last.score)} / 100`}</strong>
      <LastAnalysisMoney analysisId={last.id} given={last.money_per_month} />
    </span>
  );
}
