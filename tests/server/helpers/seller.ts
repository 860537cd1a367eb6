import type { SellerRequisites } from '../../../server/config/payments.js';

/** A seller with real-looking requisites (valid ИНН, no placeholders): the test apps issue invoices with it. */
export const TEST_SELLER: SellerRequisites = {
  name: 'ООО «Реклама Лаб»',
  inn: '7709998889',
  kpp: '770901001',
  ogrn: '1237700123456',
  address: '123112, г. Москва, Пресненская набережная, д. 12, офис 345',
  bank: 'ПАО Сбербанк',
  bik: '044525225',
  account: '40702810938000012345',
  correspondentAccount: '30101810400000000225',
  vatNote: 'Без НДС (упрощённая система налогообложения)',
  signer: 'Генеральный директор',
  payWithinDays: 5,
  contact: 'support@reklama-lab.example',
};
