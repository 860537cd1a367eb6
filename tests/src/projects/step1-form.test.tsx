import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Step1Form } from '@/features/projects/components/Step1Form';

function renderForm(initial = null) {
  const onSubmit = vi.fn();
  const onDraftChange = vi.fn();
  render(<Step1Form initial={initial} onSubmit={onSubmit} onDraftChange={onDraftChange} />);
  return { onSubmit, onDraftChange, user: userEvent.setup() };
}

describe('project creation, step 1', () => {
  it('shows the Russian message of every required field when submitted empty', async () => {
    const { onSubmit, user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    expect(await screen.findByText('Введите название проекта')).toBeInTheDocument();
    expect(screen.getByText('Введите адрес сайта')).toBeInTheDocument();
    expect(screen.getByText('Выберите рекламную платформу')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('checks the name length and the site address once a field is left', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Название проекта'), 'О');
    await user.type(screen.getByLabelText('Сайт'), 'не сайт');
    await user.tab();
    expect(await screen.findByText('Название проекта должно содержать минимум 2 символа')).toBeInTheDocument();
    expect(screen.getByText('Некорректный адрес сайта')).toBeInTheDocument();
  });

  it('refuses a target CPA that is not a positive number', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText(/Целевая цена конверсии/), '-100');
    await user.tab();
    expect(await screen.findByText('Целевая цена конверсии должна быть положительным числом')).toBeInTheDocument();
  });

  it('hands over valid data with the site address normalised', async () => {
    const { onSubmit, onDraftChange, user } = renderForm();
    await user.type(screen.getByLabelText('Название проекта'), 'Окна Плюс');
    await user.type(screen.getByLabelText('Сайт'), 'Okna-Plus.ru/');
    expect(screen.getByText('Сохраним как https://okna-plus.ru')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Google Ads' }));
    await user.type(screen.getByLabelText(/Целевая цена конверсии/), '1 500,50');
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({ name: 'Окна Плюс', site_url: 'https://okna-plus.ru', platform: 'google_ads', region: '', target_cpa: 1500.5 });
    // Every keystroke is remembered for a reload.
    expect(onDraftChange).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'Окна Плюс', platform: 'google_ads' }));
  });

  it('starts from the remembered draft', () => {
    renderForm({ name: 'Двери', site_url: 'dveri.ru', platform: 'vk_ads' } as never);
    expect(screen.getByLabelText('Название проекта')).toHaveValue('Двери');
    expect(screen.getByRole('radio', { name: 'VK Реклама' })).toBeChecked();
  });
});
