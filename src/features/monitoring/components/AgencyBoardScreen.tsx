import { Link } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { analysisStatusLabels } from "@contract/analysis.js";
import type { BoardProject } from "@contract/audit-changes.js";
import { adPlatformLabels } from "@contract/campaigns.js";
import {
  formatCount,
  formatDateTime,
  formatRub,
  pluralRu,
} from "@contract/format";
import { ProjectsPending, SearchSortBar, projectsPending } from "@/components/ui/SearchSortBar";
import { formatMoneyChange, moneyTrendChange } from "@/features/monitoring/format";
import { Sparkline } from "./TrendChart";
import "@/features/monitoring/monitoring.css";

export type BoardSort = "money" | "growth" | "new" | "last_run" | "name";
export type BoardFilter = "all" | "failed" | "grew" | "new";

export const BOARD_SORT_LABELS: Record<BoardSort, string> = {
  money: "Больше потерь",
  growth: "Потери выросли сильнее",
  new: "Больше новых находок",
  last_run: "Давно не проверялись",
  name: "По названию",
};

export const BOARD_FILTER_LABELS: Record<BoardFilter, string> = {
  all: "Все проекты",
  failed: "Запуск с ошибкой",
  grew: "Потери выросли",
  new: "Есть новые находки",
};

interface BoardRow {
  project: BoardProject;
  money: number | null;
  growth: number | null;
  failed: boolean;
}

const rowOf = (project: BoardProject): BoardRow => ({
  project,
  money: project.audits.at(-1)?.money_per_month ?? null,
  growth: moneyTrendChange(project.audits),
  failed: project.last_run?.status === "failed",
});

const filters: Record<BoardFilter, (row: BoardRow) => boolean> = {
  all: () => true,
  failed: (row) => row.failed,
  grew: (row) => (row.growth ?? 0) > 0,
  new: (row) => (row.project.new_findings ?? 0) > 0,
};

/** Bigger first for the figures; the oldest run first for «давно не проверялись» (never run: first of all). */
const comparators: Record<BoardSort, (a: BoardRow, b: BoardRow) => number> = {
  money: (a, b) => (b.money ?? -1) - (a.money ?? -1),
  growth: (a, b) => (b.growth ?? -Infinity) - (a.growth ?? -Infinity),
  new: (a, b) =>
    (b.project.new_findings ?? -1) - (a.project.new_findings ?? -1),
  last_run: (a, b) =>
    (a.project.last_run?.created_at ?? "").localeCompare(
      b.project.last_run?.created_at ?? "",
    ),
  name: (a, b) => a.project.name.localeCompare(b.project.name, "ru"),
};

/** The rows the screen shows: filtered, searched by name, failures first, then by the chosen sort. */
export function boardRows(
  projects: readonly BoardProject[],
  {
    search,
    filter,
    sort,
  }: { search: string; filter: BoardFilter; sort: BoardSort },
): BoardRow[] {
  const needle = search.trim().toLocaleLowerCase("ru-RU");
  return projects
    .map(rowOf)
    .filter(
      (row) =>
        filters[filter](row) &&
        (!needle ||
          row.project.name.toLocaleLowerCase("ru-RU").includes(needle)),
    )
    .sort(
      (a, b) =>
        Number(b.failed) - Number(a.failed) ||
        comparators[sort](a, b) ||
        a.project.name.localeCompare(b.project.name, "ru"),
    );
}

interface Props {
  projects: BoardProject[] | undefined;
  loading: boolean;
  offline: boolean;
  error: string | null;
  onRetry: () => void;
}

/** Every project of the organization on one screen: money at risk and its trend, new findings, last run. */
export function AgencyBoardScreen({
  projects,
  loading,
  offline,
  error,
  onRetry,
}: Props) {
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<BoardFilter>("all");
  const [sort, setSort] = useState<BoardSort>("money");
  const rows = useMemo(
    () => (projects ? boardRows(projects, { search, filter, sort }) : []),
    [projects, search, filter, sort],
  );
  return (
    <section className="page board">
      <h1>Сводка по проектам</h1>
      <SearchSortBar
        className="board__filters"
        search={search}
        onSearchChange={setSearch}
        filter={{ value: filter, labels: BOARD_FILTER_LABELS, onChange: setFilter }}
        sort={{ value: sort, labels: BOARD_SORT_LABELS, onChange: setSort }}
      />
      {projectsPending({ projects, loading, error }) ? (
        <ProjectsPending offline={offline} error={error} onRetry={onRetry} />
      ) : rows.length === 0 ? (
        <div className="state-card">
          <p className="muted">
            {projects && projects.length > 0
              ? "Нет проектов, подходящих под условия."
              : "В организации пока нет проектов."}
          </p>
        </div>
      ) : (
        <BoardTable rows={rows} />
      )}
    </section>
  );
}

function BoardTable({ rows }: { rows: BoardRow[] }) {
  return (
    <div className="table-wrap">
      <table className="table board__table" aria-label="Проекты организации">
        <thead>
          <tr>
            <th>Проект</th>
            <th>Потери в месяц</th>
            <th>Тренд</th>
            <th>Новые находки</th>
            <th>Последний запуск</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <BoardLine key={row.project.id} row={row} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function BoardLine({ row }: { row: BoardRow }) {
  const { project, money, growth, failed } = row;
  const run = project.last_run;
  return (
    <tr
      className={failed ? "board__row board__row--failed" : "board__row"}
      data-testid="board-row"
    >
      <td data-label="Проект" className="board__project">
        <Link to="/projects/$id" params={{ id: project.id }} className="link">
          {project.name}
        </Link>
        <span className="muted"> · {adPlatformLabels[project.platform]}</span>
      </td>
      <td data-label="Потери в месяц">
        {money === null ? (
          <span className="muted">—</span>
        ) : (
          <span>
            <strong>{formatRub(money)}</strong>
            {growth !== null && growth !== 0 && (
              <>
                {" "}
                <span
                  className={
                    growth > 0
                      ? "money-change money-change--worse"
                      : "money-change money-change--better"
                  }
                >
                  {formatMoneyChange(growth)}
                </span>
              </>
            )}
          </span>
        )}
      </td>
      <td data-label="Тренд">
        <Sparkline
          values={project.audits.map((audit) => audit.money_per_month)}
          grew={(growth ?? 0) > 0}
        />
      </td>
      <td data-label="Новые находки">
        {project.new_findings === null ? (
          <span className="muted">—</span>
        ) : (
          <span>
            {formatCount(project.new_findings)}{" "}
            {pluralRu(project.new_findings, ["находка", "находки", "находок"])}
            {(project.new_findings_money ?? 0) > 0 && (
              <span className="muted">
                {" "}
                · {formatRub(project.new_findings_money!)}/мес
              </span>
            )}
          </span>
        )}
      </td>
      <td data-label="Последний запуск">
        {run ? (
          <span>
            {formatDateTime(run.created_at)}{" "}
            <span
              className={
                run.status === "failed"
                  ? "badge badge--danger"
                  : run.status === "completed"
                    ? "badge badge--success"
                    : "badge badge--muted"
              }
            >
              {analysisStatusLabels[run.status]}
            </span>
          </span>
        ) : (
          <span className="muted">Анализов ещё не было</span>
        )}
        {project.next_run_at && (
          <span className="muted board__next">
            {" "}
            · следующий {formatDateTime(project.next_run_at)}
          </span>
        )}
      </td>
    </tr>
  );
}
