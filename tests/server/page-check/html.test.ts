import { describe, expect, it } from 'vitest';
import { attributesOf, decodeEntities, extractPage, textOf } from '../../../server/engines/page-check/html.js';

const pageWith = (body: string, head = '<title>Окна</title>') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('HTML reading with a real parser', () => {
  it('keeps a `>` inside an attribute out of the page text', () => {
    const content = extractPage(pageWith(`<a href="/okna" title="окна > двери" data-x='a>b'>Купить окна</a><p>Пластиковые окна</p>`));
    expect(content.text).toBe('Купить окна Пластиковые окна');
    expect(content.text).not.toContain('двери');
    expect(content.text).not.toContain('>');
  });

  it('drops a nested nav as a whole, including the text after the inner nav closes', () => {
    const content = extractPage(pageWith(`<nav><ul><li>Главная</li><nav><a>Жалюзи</a></nav><li>Кондиционеры</li></ul></nav><h1>Пластиковые окна</h1><p>Монтаж за день</p>`));
    expect(content.text).toBe('Пластиковые окна Монтаж за день');
    for (const menu of ['Главная', 'Жалюзи', 'Кондиционеры']) expect(content.text).not.toContain(menu);
  });

  it('decodes every named entity, in text, title, headings and attributes', () => {
    const content = extractPage(
      pageWith('<h1>Caf&eacute; &amp; d&eacute;cor</h1><p>Cr&egrave;me br&ucirc;l&eacute;e &ndash; 5&nbsp;&euro; &hearts;</p>', '<title>Caf&eacute;</title><meta name="description" content="Caf&eacute; &laquo;Окна&raquo;">'),
    );
    expect(content.title).toBe('Café');
    expect(content.metaDescription).toBe('Café «Окна»');
    expect(content.h1).toEqual(['Café & décor']);
    expect(content.text).toContain('Crème brûlée – 5 € ♥');
    expect(content.text).not.toMatch(/&[a-z]+;/);
  });

  it('separates words at block tags but not at inline ones', () => {
    const content = extractPage(pageWith('<p>Пласт<b>иковые</b> окна</p><div>Цены</div><div>Скидки</div>'));
    expect(content.text).toBe('Пластиковые окна Цены Скидки');
  });

  it('takes the page title, not the one of an inline svg icon, and only head meta tags when there is a head', () => {
    const content = extractPage(
      `<html><head><meta name="description" content="Настоящее описание"></head><body><svg><title>Иконка</title></svg><title>Окна</title><meta name="robots" content="noindex"><p>Текст</p></body></html>`,
    );
    expect(content.title).toBe('Окна');
    expect(content.metaDescription).toBe('Настоящее описание');
    expect(content.noindex).toBe(false);
    expect(content.text).toBe('Текст');
  });

  it('keeps the exported helpers working on fragments and single tags', () => {
    expect(textOf('<b>Окна</b>&nbsp;<i>&eacute;</i>')).toBe('Окна é');
    expect(attributesOf(`<meta NAME="Description" content='a > b &amp; c'>`)).toEqual({ name: 'Description', content: 'a > b & c' });
    expect(decodeEntities('&eacute;&#8212;&#x41e;&amp')).toBe('é—О&');
  });
});
