import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { createProject } from './helpers.js';

let t: TestApp;
let owner: FixtureUser;
let member: FixtureUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.app, { firstName: 'Анна', lastName: 'Смирнова' });
  member = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'member' });
});
afterAll(() => t.close());

describe('projects CRUD', () => {
  it('creates a project with a normalised site address and shows it to every member of the organization', async () => {
    const created = await call(t.app, 'POST', '/api/v1/projects', {
      token: owner.token,
      body: { name: '  Окна Плюс  ', site_url: 'HTTPS://Okna-Plus.Example.RU/', platform: 'yandex_direct', region: 'Москва', target_cpa: 1500 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Окна Плюс',
      site_url: 'https://okna-plus.example.ru',
      platform: 'yandex_direct',
      region: 'Москва',
      target_cpa: 1500,
      author: { id: owner.id, full_name: 'Анна Смирнова' },
      counts: { campaigns: 0, groups: 0, ads: 0, keywords: 0 },
      last_analysis: null,
      campaigns: [],
      imports: [],
      connection: null,
    });

    const seenByMember = await call(t.app, 'GET', `/api/v1/projects/${created.body.id}`, { token: member.token });
    expect(seenByMember.status).toBe(200);
    expect(seenByMember.body.name).toBe('Окна Плюс');
  });

  it('adds https:// when the scheme is missing', async () => {
    const project = await createProject(t.app, owner.token, { site_url: 'shop.example.ru/catalog/' });
    expect(project.site_url).toBe('https://shop.example.ru/catalog');
  });

  it('lists, searches by name and sorts', async () => {
    await createProject(t.app, owner.token, { name: 'Бетон Москва' });
    await createProject(t.app, owner.token, { name: 'Аренда самосвалов' });
    const byName = await call(t.app, 'GET', '/api/v1/projects?sort=name', { token: member.token });
    expect(byName.status).toBe(200);
    const names = byName.body.items.map((item: { name: string }) => item.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'ru')));
    expect(byName.body.total).toBe(names.length);
    expect(byName.body.items[0]).toMatchObject({ counts: { campaigns: 0, keywords: 0, ads: 0 }, last_analysis: null });

    const search = await call(t.app, 'GET', `/api/v1/projects?search=${encodeURIComponent('бетон')}`, { token: owner.token });
    expect(search.body.items.map((item: { name: string }) => item.name)).toEqual(['Бетон Москва']);

    const newest = await call(t.app, 'GET', '/api/v1/projects?sort=created', { token: owner.token });
    expect(newest.body.items[0].name).toBe('Аренда самосвалов');
    const oldest = await call(t.app, 'GET', '/api/v1/projects?sort=created&order=asc', { token: owner.token });
    expect(oldest.body.items[0].name).toBe('Окна Плюс');
  });

  it('treats % and _ in the search as plain characters', async () => {
    const response = await call(t.app, 'GET', `/api/v1/projects?search=${encodeURIComponent('%')}`, { token: owner.token });
    expect(response.body.items).toEqual([]);
  });

  it('updates a project', async () => {
    const project = await createProject(t.app, owner.token);
    const response = await call(t.app, 'PATCH', `/api/v1/projects/${project.id}`, {
      token: member.token,
      body: { name: 'Окна Плюс — СПб', target_cpa: null, settings: { min_clicks_for_negative: 10 } },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'Окна Плюс — СПб', target_cpa: null, settings: { min_clicks_for_negative: 10 } });
  });

  it('deletes a project: it disappears from the list and from every route', async () => {
    const project = await createProject(t.app, owner.token, { name: 'Удаляемый' });
    const refused = await call(t.app, 'DELETE', `/api/v1/projects/${project.id}`, { token: member.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');

    expect((await call(t.app, 'DELETE', `/api/v1/projects/${project.id}`, { token: owner.token })).status).toBe(204);
    expect((await call(t.app, 'GET', `/api/v1/projects/${project.id}`, { token: owner.token })).status).toBe(404);
    const listed = await call(t.app, 'GET', '/api/v1/projects', { token: owner.token });
    expect(listed.body.items.some((item: { id: string }) => item.id === project.id)).toBe(false);
  });

  it('lets the author who is a plain member delete their own project', async () => {
    const project = await createProject(t.app, member.token, { name: 'Мой проект' });
    expect((await call(t.app, 'DELETE', `/api/v1/projects/${project.id}`, { token: member.token })).status).toBe(204);
  });

  it('requires a login', async () => {
    expect((await call(t.app, 'GET', '/api/v1/projects')).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/projects', { body: { name: 'x' } })).status).toBe(401);
  });
});

describe('project validation', () => {
  it('answers 422 with the form messages in Russian', async () => {
    const response = await call(t.app, 'POST', '/api/v1/projects', { token: owner.token, body: { name: 'О', site_url: 'не сайт', platform: 'facebook' } });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    const byField = Object.fromEntries(response.body.detail.map((d: { loc: string[]; msg: string }) => [d.loc.at(-1), d.msg]));
    expect(byField).toEqual({
      name: 'Название проекта должно содержать минимум 2 символа',
      site_url: 'Некорректный адрес сайта',
      platform: 'Выберите рекламную платформу',
    });
  });

  it('requires the name, the site and the platform', async () => {
    const response = await call(t.app, 'POST', '/api/v1/projects', { token: owner.token, body: { name: '', site_url: '' } });
    expect(response.status).toBe(422);
    const messages = response.body.detail.map((d: { msg: string }) => d.msg);
    expect(messages).toEqual(expect.arrayContaining(['Введите название проекта', 'Введите адрес сайта', 'Выберите рекламную платформу']));
  });

  it('refuses a non-positive target CPA and an unknown draft', async () => {
    const cpa = await call(t.app, 'POST', '/api/v1/projects', { token: owner.token, body: { name: 'Окна', site_url: 'okna.example.ru', platform: 'google_ads', target_cpa: -5 } });
    expect(cpa.status).toBe(422);
    expect(cpa.body.detail[0].msg).toBe('Целевая цена конверсии должна быть положительным числом');

    const draft = await call(t.app, 'POST', '/api/v1/projects', {
      token: owner.token,
      body: { name: 'Окна', site_url: 'okna.example.ru', platform: 'google_ads', draft_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(draft.status).toBe(404);
    expect(draft.body.code).toBe('DRAFT_NOT_FOUND');
    // The stale draft left no empty project behind.
    const listed = await call(t.app, 'GET', '/api/v1/projects?search=Окна&sort=name', { token: owner.token });
    expect(listed.body.items.filter((item: { platform: string }) => item.platform === 'google_ads')).toEqual([]);
  });

  it('refuses thresholds out of range in a PATCH with the form messages, and keeps the saved ones', async () => {
    const project = await createProject(t.app, owner.token);
    const saved = await call(t.app, 'PATCH', `/api/v1/projects/${project.id}`, { token: owner.token, body: { settings: { min_clicks_for_negative: 10, low_search_ctr: 0.015 } } });
    expect(saved.status).toBe(200);

    const response = await call(t.app, 'PATCH', `/api/v1/projects/${project.id}`, {
      token: owner.token,
      body: {
        name: 'Окна Плюс — СПб',
        settings: {
          min_clicks_for_negative: -1,
          min_clicks_for_keyword_action: 2.5,
          same_ad_text_groups: 1,
          low_search_ctr: 1.5,
          stop_cost_cpa_multiple: 0,
          competitors: ['x'.repeat(101)],
        },
      },
    });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    const byField = Object.fromEntries(response.body.detail.map((d: { loc: (string | number)[]; msg: string }) => [d.loc.filter((part) => typeof part === 'string').join('.'), d.msg]));
    expect(byField).toEqual({
      'body.settings.min_clicks_for_negative': 'Введите неотрицательное число',
      'body.settings.min_clicks_for_keyword_action': 'Введите целое число',
      'body.settings.same_ad_text_groups': 'Не меньше 2',
      'body.settings.low_search_ctr': 'Не больше 100 %',
      'body.settings.stop_cost_cpa_multiple': 'Введите число больше нуля',
      'body.settings.competitors': 'Название конкурента — не длиннее 100 символов',
    });

    const unchanged = await call(t.app, 'GET', `/api/v1/projects/${project.id}`, { token: owner.token });
    expect(unchanged.body).toMatchObject({ name: project.name, settings: { min_clicks_for_negative: 10, low_search_ctr: 0.015 } });
  });

  it('answers 404 for an unknown project and 422 for a malformed id', async () => {
    expect((await call(t.app, 'GET', '/api/v1/projects/00000000-0000-4000-8000-000000000000', { token: owner.token })).status).toBe(404);
    expect((await call(t.app, 'GET', '/api/v1/projects/abc', { token: owner.token })).status).toBe(422);
  });
});
