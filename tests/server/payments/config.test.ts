import { describe, expect, it } from 'vitest';
import { DEFAULT_PACKAGES, DEFAULT_SELLER, paymentsConfigFromEnv, sellerPlaceholders } from '../../../server/config/payments.js';
import { TEST_SELLER } from '../helpers/seller.js';
import { StartupError } from '../../../server/startup-error.js';

describe('payments configuration', () => {
  it('has sane defaults: packages for sale, invoices only, our requisites', () => {
    const config = paymentsConfigFromEnv({});
    expect(config).toEqual({ packages: DEFAULT_PACKAGES, yookassa: null, seller: DEFAULT_SELLER });
    expect(DEFAULT_PACKAGES.every((pkg, index) => index === 0 || pkg.price_rub / pkg.tokens < DEFAULT_PACKAGES[index - 1]!.price_rub / DEFAULT_PACKAGES[index - 1]!.tokens)).toBe(true);
  });

  it('reads packages, YooKassa and the seller from the environment', () => {
    const config = paymentsConfigFromEnv({
      TOKEN_PACKAGES_JSON: '[{"id":"mini","tokens":100,"price_rub":250}]',
      YOOKASSA_SHOP_ID: '54321',
      YOOKASSA_SECRET_KEY: 'live_secret',
      SELLER_REQUISITES_JSON: '{"name":"ИП Иванов И. И.","inn":"770000000000","kpp":""}',
    });
    // A package listed without a Russian name is named by its tokens.
    expect(config.packages).toEqual([{ id: 'mini', name: '100 токенов', tokens: 100, price_rub: 250 }]);
    expect(config.yookassa).toEqual({ shopId: '54321', secretKey: 'live_secret', apiUrl: 'https://api.yookassa.ru/v3' });
    expect(config.seller).toMatchObject({ name: 'ИП Иванов И. И.', inn: '770000000000', kpp: '', bik: DEFAULT_SELLER.bik });
  });

  it('names packages in Russian: the defaults, and those the environment names', () => {
    expect(DEFAULT_PACKAGES.map((pkg) => pkg.name)).toEqual(['Старт', 'Команда', 'Агентство']);
    const config = paymentsConfigFromEnv({ TOKEN_PACKAGES_JSON: '[{"id":"start","tokens":500,"price_rub":990},{"id":"pro","name":"Профи","tokens":900,"price_rub":1500}]' });
    expect(config.packages.map((pkg) => pkg.name)).toEqual(['Старт', 'Профи']);
  });

  it('tells placeholder seller requisites from real ones', () => {
    expect(sellerPlaceholders(DEFAULT_SELLER)).toEqual(expect.arrayContaining(['inn', 'address', 'bank', 'bik', 'account', 'correspondentAccount']));
    expect(sellerPlaceholders(TEST_SELLER)).toEqual([]);
    // One real-looking field left as the placeholder's shape is enough to stop the invoices.
    expect(sellerPlaceholders({ ...TEST_SELLER, address: 'г. Москва, ул. Тверская, д. 0, офис 000' })).toEqual(['address']);
    expect(sellerPlaceholders({ ...TEST_SELLER, bank: 'АО «Банк»' })).toEqual(['bank']);
    expect(sellerPlaceholders({ ...TEST_SELLER, inn: '1234567890' })).toEqual(['inn']);
    // An entrepreneur (12-digit ИНН) has no КПП.
    expect(sellerPlaceholders({ ...TEST_SELLER, inn: '500100732259', kpp: '' })).toEqual([]);
    expect(sellerPlaceholders({ ...TEST_SELLER, inn: '500100732259' })).toEqual(['kpp']);
  });

  it.each([
    [{ TOKEN_PACKAGES_JSON: '[{"id":"a","tokens":0,"price_rub":1}]' }, /TOKEN_PACKAGES_JSON\[0\]/],
    [{ TOKEN_PACKAGES_JSON: '[{"id":"a","tokens":1,"price_rub":1},{"id":"a","tokens":2,"price_rub":2}]' }, /listed twice/],
    [{ TOKEN_PACKAGES_JSON: 'not json' }, /not valid JSON/],
    [{ YOOKASSA_SHOP_ID: '1' }, /must be set together/],
  ])('stops the start on a malformed setting %o', (env, message) => {
    expect(() => paymentsConfigFromEnv(env)).toThrow(StartupError);
    expect(() => paymentsConfigFromEnv(env)).toThrow(message);
  });
});
