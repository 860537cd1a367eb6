import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountInWords } from '../../../server/payments/amount-in-words.js';
import { DEFAULT_SELLER } from '../../../server/config/payments.js';
import { formatTokens } from '../../../contract/format.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const requisites = { name: 'ООО «Ромашка»', inn: '7701234560', kpp: '770101001', address: '101000, г. Москва, ул. Мясницкая, д. 1' };
const balanceOf = async (user: FixtureUser) => (await call(t.app, 'GET', '/api/v1/tokens/balance', { token: user.token })).body.balance as number;
const invoice = (user: FixtureUser, key: string, packageId = 'team', body: object = {}) =>
  call(t.app, 'POST', '/api/v1/tokens/invoices', { token: user.token, body: { package_id: packageId, requisites, idempotency_key: key, ...body } });

/** The PDF as raw bytes: `%PDF-` header, trailer, and the document info (Subject), which pdfkit writes uncompressed. */
async function fetchPdf(user: FixtureUser, id: string) {
  const response = await t.app.inject({ method: 'GET', url: `/api/v1/tokens/invoices/${id}/pdf`, headers: { authorization: `Bearer ${user.token}` } });
  return { status: response.statusCode, type: response.headers['content-type'], bytes: response.rawPayload };
}

describe('invoices («счёт на оплату»)', () => {
  it('issues a numbered invoice with the requisites and keeps them as the organization’s for its owner', async () => {
    const owner = await createUser(t.app);
    expect((await call(t.app, 'GET', '/api/v1/tokens/requisites', { token: owner.token })).body).toEqual({ requisites: null, can_edit: true });
    const res = await invoice(owner, 'inv-1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ method: 'invoice', status: 'pending', package_id: 'team', tokens: 2000, amount_rub: 3490, requisites, confirmation_url: null });
    expect(res.body.invoice_number).toEqual(expect.any(Number));
    expect((await invoice(owner, 'inv-1')).body).toEqual(res.body);
    expect((await call(t.app, 'GET', '/api/v1/tokens/requisites', { token: owner.token })).body).toEqual({ requisites, can_edit: true });
  });

  it('validates the requisites with Russian messages', async () => {
    const owner = await createUser(t.app);
    const res = await invoice(owner, 'bad', 'team', { requisites: { ...requisites, inn: '123', address: '' } });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { msg: string }) => d.msg)).toEqual(expect.arrayContaining(['ИНН: 10 цифр для организации или 12 для ИП', 'Укажите юридический адрес']));
  });

  it.each([
    ['a 10-digit ИНН whose control digit does not match', { inn: '1234567890' }, 'inn', 'ИНН с ошибкой: контрольная цифра не сходится. Проверьте номер по свидетельству или выписке ЕГРЮЛ'],
    ['a 12-digit ИНН whose control digits do not match', { inn: '500100732258', kpp: '' }, 'inn', 'ИНН с ошибкой: контрольная цифра не сходится. Проверьте номер по свидетельству или выписке ЕГРЮЛ'],
    ['a malformed КПП', { kpp: '77010100' }, 'kpp', 'КПП: 9 символов — 4 цифры, 2 цифры или заглавные латинские буквы, 3 цифры'],
    ['a company without a КПП', { kpp: '' }, 'kpp', 'Укажите КПП: у организации (ИНН из 10 цифр) он есть в выписке ЕГРЮЛ'],
    ['an entrepreneur with a КПП', { inn: '500100732259' }, 'kpp', 'У ИП и физических лиц (ИНН из 12 цифр) нет КПП: оставьте поле пустым'],
  ])('refuses %s with a Russian message on the field, issuing nothing', async (_, patch, field, message) => {
    const owner = await createUser(t.app);
    const res = await invoice(owner, `bad-${field}`, 'team', { requisites: { ...requisites, ...patch } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['body', 'requisites', field], msg: message }]);
    expect((await call(t.app, 'GET', '/api/v1/tokens/payments', { token: owner.token })).body.items).toEqual([]);
  });

  it('issues an invoice to an entrepreneur: a valid 12-digit ИНН and no КПП', async () => {
    const owner = await createUser(t.app);
    const res = await invoice(owner, 'ip-1', 'start', { requisites: { ...requisites, name: 'ИП Иванов И. И.', inn: '500100732259', kpp: '' } });
    expect(res.status).toBe(200);
    expect(res.body.requisites).toMatchObject({ inn: '500100732259', kpp: '' });
  });

  it('lets a member invoice but not change the organization’s requisites', async () => {
    const owner = await createUser(t.app);
    const member = await createUser(t.app, { organizationId: owner.organizationId });
    expect((await call(t.app, 'PUT', '/api/v1/tokens/requisites', { token: member.token, body: requisites })).status).toBe(403);
    expect((await invoice(member, 'm-1')).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/tokens/requisites', { token: member.token })).body).toEqual({ requisites: null, can_edit: false });
  });

  it('returns a PDF with the amount in it', async () => {
    const owner = await createUser(t.app);
    const created = await invoice(owner, 'pdf-1');
    const pdf = await fetchPdf(owner, created.body.id);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    const text = pdf.bytes.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(pdf.bytes.length).toBeGreaterThan(5_000);
    expect(text).toContain(`(Invoice ${created.body.invoice_number}: 3490.00 RUB for 2000 tokens)`);
    // The page's text is drawn with an embedded Cyrillic font: the content stream is there and non-trivial.
    const streams = [...text.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map((match) => inflateSync(Buffer.from(match[1]!, 'latin1')).toString('latin1'));
    expect(streams.some((stream) => stream.includes('Tj') || stream.includes('TJ'))).toBe(true);
    expect(text).toContain('DejaVuSans');
  });

  it('writes the sum in words the way an invoice does', () => {
    expect(amountInWords(349_000)).toBe('Три тысячи четыреста девяносто рублей 00 копеек');
    expect(amountInWords(99_000)).toBe('Девятьсот девяносто рублей 00 копеек');
    expect(amountInWords(1_490_000_01)).toBe('Один миллион четыреста девяносто тысяч рублей 01 копейка');
    expect(amountInWords(2_100)).toBe('Двадцать один рубль 00 копеек');
    expect(amountInWords(1_200_000)).toBe('Двенадцать тысяч рублей 00 копеек');
  });

  it('shows an invoice’s PDF only to its buyer and to platform admins', async () => {
    const owner = await createUser(t.app);
    const stranger = await createUser(t.app);
    const admin = await createUser(t.app, { role: 'admin' });
    const created = await invoice(owner, 'private');
    expect((await fetchPdf(stranger, created.body.id)).status).toBe(404);
    expect((await fetchPdf(admin, created.body.id)).status).toBe(200);
  });

  it('credits the tokens once when an admin marks it paid, also under concurrent clicks, and audit-logs it', async () => {
    const owner = await createUser(t.app, { balance: 10 });
    const admin = await createUser(t.app, { role: 'admin' });
    const created = await invoice(owner, 'pay-me');
    const listed = await call(t.app, 'GET', '/api/v1/admin/invoices?status=pending', { token: admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.items.find((item: { id: string }) => item.id === created.body.id)).toMatchObject({ user: { id: owner.id, email: owner.email }, status: 'pending' });

    const clicks = await Promise.all(Array.from({ length: 10 }, () => call(t.app, 'POST', `/api/v1/admin/invoices/${created.body.id}/mark-paid`, { token: admin.token })));
    expect(clicks.map((c) => c.status)).toEqual(Array(10).fill(200));
    expect(clicks[0]!.body).toMatchObject({ status: 'paid' });
    expect(await balanceOf(owner)).toBe(2010);
    const history = await call(t.app, 'GET', '/api/v1/tokens/history?type=purchase', { token: owner.token });
    expect(history.body.items).toHaveLength(1);
    expect(history.body.items[0].reason).toBe(`Оплата счёта № ${created.body.invoice_number}: ${formatTokens(2000)}`);
    const audit = await t.app.db.selectFrom('audit_log').selectAll().where('action', '=', 'invoice.mark_paid').where('target_user_id', '=', owner.id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_user_id).toBe(admin.id);

    // A paid invoice can no longer be cancelled, by anyone.
    expect((await call(t.app, 'POST', `/api/v1/admin/invoices/${created.body.id}/cancel`, { token: admin.token })).status).toBe(409);
    const own = await call(t.app, 'POST', `/api/v1/tokens/invoices/${created.body.id}/cancel`, { token: owner.token });
    expect(own.status).toBe(409);
    expect(own.body.error).toBe('Счёт уже оплачен или отменён');
  });

  it('cancels: by the buyer or by an admin, and a cancelled invoice is never paid', async () => {
    const owner = await createUser(t.app, { balance: 0 });
    const admin = await createUser(t.app, { role: 'admin' });
    const first = await invoice(owner, 'c-1');
    const cancelled = await call(t.app, 'POST', `/api/v1/tokens/invoices/${first.body.id}/cancel`, { token: owner.token });
    expect(cancelled.body).toMatchObject({ status: 'canceled', cancel_reason: 'Отменён покупателем' });
    expect((await call(t.app, 'POST', `/api/v1/admin/invoices/${first.body.id}/mark-paid`, { token: admin.token })).status).toBe(409);
    const second = await invoice(owner, 'c-2');
    expect((await call(t.app, 'POST', `/api/v1/admin/invoices/${second.body.id}/cancel`, { token: admin.token })).body).toMatchObject({ status: 'canceled', cancel_reason: 'Отменён администратором' });
    expect(await balanceOf(owner)).toBe(0);
  });

  it('keeps the admin endpoints to platform admins', async () => {
    const owner = await createUser(t.app);
    const created = await invoice(owner, 'guard');
    expect((await call(t.app, 'GET', '/api/v1/admin/invoices')).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/admin/invoices', { token: owner.token })).status).toBe(403);
    expect((await call(t.app, 'POST', `/api/v1/admin/invoices/${created.body.id}/mark-paid`, { token: owner.token })).status).toBe(403);
    expect(await balanceOf(owner)).toBe(0);
  });
});

describe('invoices while the seller\'s requisites are placeholders', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await createTestApp({ config: { payments: { packages: t.config.payments.packages, yookassa: null, seller: DEFAULT_SELLER } } });
  });
  afterAll(async () => plain?.close());

  it('are not offered, are refused with 503 saying whom to write to, and nothing is issued', async () => {
    const owner = await createUser(plain.app);
    const packages = await call(plain.app, 'GET', '/api/v1/tokens/packages', { token: owner.token });
    expect(packages.body).toMatchObject({ methods: { card: false, invoice: false }, contact: 'support@reklama-lab.example' });
    const res = await call(plain.app, 'POST', '/api/v1/tokens/invoices', { token: owner.token, body: { package_id: 'team', requisites, idempotency_key: 'placeholder-1' } });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      error: 'Счета пока не выставляются: в реквизитах продавца не заполнены настоящие данные. Оплатите картой или напишите нам: support@reklama-lab.example',
      code: 'INVOICES_DISABLED',
    });
    expect((await call(plain.app, 'GET', '/api/v1/tokens/payments', { token: owner.token })).body.items).toEqual([]);
  });
});
