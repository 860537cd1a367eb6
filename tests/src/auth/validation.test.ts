import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { LoginSchema, RegisterFormSchema } from '@contract/auth.js';

// Every message of spec section 5, straight from the shared schemas the forms use.
const firstMessage = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  return result.success ? null : result.issues.map((issue) => issue.message);
};

const validRegister = {
  first_name: 'Анна',
  last_name: 'Петрова',
  email: 'anna@example.ru',
  password: 'Secret123',
  organization_type: 'create',
  organization_name: 'Ромашка',
  invitation_code: '',
  terms_accepted: true,
};

describe('login rules', () => {
  it.each([
    [{ email: '', password: 'x' }, 'Введите email'],
    [{ email: 'not-an-email', password: 'x' }, 'Некорректный email'],
    [{ email: 'a@b.ru', password: '' }, 'Введите пароль'],
  ])('%o → %s', (input, message) => {
    expect(firstMessage(LoginSchema, input)).toEqual([message]);
  });
});

describe('register rules', () => {
  it.each([
    [{ first_name: '' }, 'Введите имя'],
    [{ first_name: 'А' }, 'Имя должно содержать минимум 2 символа'],
    [{ last_name: '' }, 'Введите фамилию'],
    [{ last_name: 'П' }, 'Фамилия должна содержать минимум 2 символа'],
    [{ email: '' }, 'Введите email'],
    [{ email: 'anna@' }, 'Некорректный email'],
    [{ password: 'Sh0rt' }, 'Пароль должен содержать минимум 8 символов'],
    [{ password: 'SECRET123' }, 'Пароль должен содержать строчные латинские буквы'],
    [{ password: 'secret123' }, 'Пароль должен содержать заглавные латинские буквы'],
    [{ password: 'SecretSecret' }, 'Пароль должен содержать цифры'],
    [{ terms_accepted: false }, 'Необходимо дать согласие на обработку данных.'],
    [{ organization_type: 'other' }, 'Выберите тип организации'],
    [{ organization_type: 'create', organization_name: 'Р' }, 'Заполните обязательные поля для выбранного типа организации'],
    [{ organization_type: 'join', invitation_code: 'ABCD' }, 'Заполните обязательные поля для выбранного типа организации'],
  ])('%o → %s', (patch, message) => {
    expect(firstMessage(RegisterFormSchema, { ...validRegister, ...patch })).toEqual([message]);
  });

  it('the organization message is attached to organization_type', () => {
    const result = v.safeParse(RegisterFormSchema, { ...validRegister, organization_name: '' });
    expect(result.success).toBe(false);
    expect(v.flatten(result.issues!).nested?.organization_type).toEqual(['Заполните обязательные поля для выбранного типа организации']);
  });

  it('accepts a complete create or join form', () => {
    expect(firstMessage(RegisterFormSchema, validRegister)).toBeNull();
    expect(firstMessage(RegisterFormSchema, { ...validRegister, organization_type: 'join', organization_name: '', invitation_code: 'ABCDE' })).toBeNull();
  });
});
