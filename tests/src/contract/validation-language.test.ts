import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { RegisterFormSchema } from '@contract/auth';
import { genericValidationMessages } from '@contract/messages';
import { ProjectStep1Schema } from '@contract/projects';
import { text } from '@contract/text';
import { russianIssueMessage } from '@contract/validation-language';

/** The PWA's forms validate with the contract's schemas: loading the contract is enough for Russian messages. */
describe('validation messages of the contract', () => {
  it('are Russian for every issue of a malformed form, including rules without a message of their own', () => {
    const result = v.safeParse(RegisterFormSchema, { first_name: 5, last_name: 'А'.repeat(101), email: [], password: null, organization_type: 'other', terms_accepted: 'yes' });
    expect(result.success).toBe(false);
    const messages = result.issues!.map((issue) => issue.message);
    expect(messages).toContain('Не длиннее 100 символов');
    for (const message of messages) {
      expect(message).toMatch(/[а-яё]/i);
      expect(message).not.toMatch(/Invalid|Expected|Received/);
    }
  });

  it('name what is wrong: a missing key, a type, a choice, a length, a bound', () => {
    const schema = v.object({ kind: v.picklist(['a', 'b']), count: v.pipe(v.number(), v.minValue(2)), list: v.pipe(v.array(v.string()), v.maxLength(1)), flag: v.boolean() });
    const result = v.safeParse(schema, { kind: 'c', count: 1, list: ['x', 'y'] });
    expect(result.issues!.map((issue) => issue.message)).toEqual([
      'Недопустимое значение: выберите одно из «a», «b»',
      'Не меньше 2',
      'Не больше 1 элементов',
      genericValidationMessages.missingKey,
    ]);
    expect(russianIssueMessage({ type: 'number' } as never)).toBe('Ожидается число');
  });

  it('refuse NUL and other control characters in request text, but not tab or line breaks', () => {
    expect(v.safeParse(text(), 'Москва\tи\r\nобласть').success).toBe(true);
    for (const bad of ['a\u0000b', '\u0007', '\u001b[31m', 'x\ud800']) {
      const result = v.safeParse(ProjectStep1Schema, { name: `Окна ${bad}`, site_url: 'okna.ru', platform: 'yandex_direct' });
      expect(result.issues?.map((issue) => issue.message)).toEqual([genericValidationMessages.controlCharacters]);
    }
  });
});
