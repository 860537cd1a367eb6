import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MoneyLine } from '@/components/analysis/MoneyLine';

describe('the money line of a project card and the history', () => {
  it('a loss reads «Теряете ≈ X ₽ в месяц» in the alarm colour', () => {
    render(<MoneyLine perMonth={12500} />);
    const line = screen.getByTestId('money-line');
    expect(line.textContent).toMatch(/^Теряете ≈ 12\s500/);
    expect(line.className).toBe('money-line');
  });

  it('no loss is good news: «Потерь денег не найдено», not in the colour of a loss', () => {
    render(<MoneyLine perMonth={0} />);
    const line = screen.getByTestId('money-line');
    expect(line.textContent).toBe('Потерь денег не найдено');
    expect(line.className).toContain('money-line--none');
  });

  it('without an audit there is no line at all', () => {
    const { container } = render(<MoneyLine perMonth={null} />);
    expect(container.textContent).toBe('');
  });
});
