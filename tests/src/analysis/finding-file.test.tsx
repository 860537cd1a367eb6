/**
 * A finding that carries a ready file (the network sites to paste into Direct's «Запрещённые площадки»)
 * offers it beside its fix; the file is saved from the page as the server wrote it.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Finding } from '@contract/analysis-results.js';
import { FindingCard } from '@/features/analysis/components/FindingCard';

const csv = '\uFEFFПлощадка;Расход за период, ₽;Причина\r\ngames-one.example;2600;2 600 ₽ без конверсий\r\n';
const finding: Finding = {
  id: 'stats.network_sites:c1',
  checkId: 'stats.network_sites',
  family: 'statistics',
  severity: 'medium',
  weight: 8,
  title: 'Площадки в сетях без отдачи',
  explanation: 'В сетях кампания «Окна — РСЯ» показывалась на площадках без отдачи: «games-one.example» (2 600 ₽ без конверсий).',
  fix: 'Добавьте в «Запрещённые площадки и сети» кампании (1): games-one.example.',
  target: { level: 'campaign', key: 'c1', campaignIndex: 1, campaignName: 'Окна — РСЯ', label: 'Окна — РСЯ' },
  evidence: [{ label: 'Площадок', value: 1, unit: 'count' }],
  file: { name: 'excluded-sites-802.csv', label: 'Скачать список площадок (CSV)', csv },
};

describe('a finding with a file', () => {
  it('saves the sites list under its name, byte for byte', async () => {
    const createObjectURL = vi.fn(() => 'blob:sites');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    render(<FindingCard finding={finding} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Скачать список площадок (CSV)' }));
    expect(clicked).toEqual(['excluded-sites-802.csv']);
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    expect(blob.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toBe(csv.slice(1));
  });

  it('a finding without one shows no such button', () => {
    render(<FindingCard finding={{ ...finding, file: undefined }} />);
    expect(screen.queryByRole('button', { name: /Скачать/ })).toBeNull();
  });
});
