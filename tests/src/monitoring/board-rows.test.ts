import { describe, expect, it } from 'vitest';
import type { BoardProject } from '@contract/audit-changes.js';
import { boardRows } from '@/features/monitoring/components/AgencyBoardScreen';
import { formatMoneyChange } from '@/features/monitoring/format';

const audit = (day: number, money: number | null) => ({ id: `a${day}`, created_at: `2026-11-${String(day).padStart(2, '0')}T09:00:00.000Z`, score: 70, money_per_month: money });

function project(name: string, extra: Partial<BoardProject> = {}): BoardProject {
  return { id: name, name, platform: 'yandex_direct', last_run: null, audits: [], new_findings: null, new_findings_money: null, ...extra };
}

const run = (status: 'completed' | 'failed', day: number) => ({ id: `r${day}`, status, created_at: `2026-11-${String(day).padStart(2, '0')}T09:00:00.000Z`, finished_at: null, error: null });

const projects = [
  project('Окна', { audits: [audit(1, 10_000), audit(8, 25_000)], new_findings: 4, last_run: run('completed', 8) }),
  project('Двери', { audits: [audit(1, 40_000), audit(8, 30_000)], new_findings: 0, last_run: run('completed', 9) }),
  project('Диваны', { audits: [audit(2, 5_000)], last_run: run('failed', 10) }),
  project('Кухни'),
];

describe('the agency board rows', () => {
  it('puts failed runs first, then the chosen sort', () => {
    expect(boardRows(projects, { search: '', filter: 'all', sort: 'money' }).map((row) => row.project.name)).toEqual(['Диваны', 'Двери', 'Окна', 'Кухни']);
    expect(boardRows(projects, { search: '', filter: 'all', sort: 'growth' }).map((row) => row.project.name)).toEqual(['Диваны', 'Окна', 'Двери', 'Кухни']);
    expect(boardRows(projects, { search: '', filter: 'all', sort: 'last_run' }).map((row) => row.project.name)).toEqual(['Диваны', 'Кухни', 'Окна', 'Двери']);
  });

  it('filters by what grew, what failed, new findings and the name', () => {
    expect(boardRows(projects, { search: '', filter: 'grew', sort: 'money' }).map((row) => [row.project.name, row.growth])).toEqual([['Окна', 15_000]]);
    expect(boardRows(projects, { search: '', filter: 'failed', sort: 'money' }).map((row) => row.project.name)).toEqual(['Диваны']);
    expect(boardRows(projects, { search: '', filter: 'new', sort: 'money' }).map((row) => row.project.name)).toEqual(['Окна']);
    expect(boardRows(projects, { search: 'ДВ', filter: 'all', sort: 'name' }).map((row) => row.project.name)).toEqual(['Двери']);
  });

  it('writes a money change with its sign', () => {
    expect([formatMoneyChange(15_000), formatMoneyChange(-3518.18), formatMoneyChange(0)].map((text) => text.replace(/\s/g, ' '))).toEqual(['+15 000 ₽/мес', '−3 518 ₽/мес', '0 ₽/мес']);
  });
});
