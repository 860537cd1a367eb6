/**
 * Issue 27: invoice PDFs are built in the document pool's threads (server/lib/documents.ts), not in the
 * event loop, with a limit: the same document as the in-loop build, and past the pool's queue a 503 in
 * Russian with Retry-After instead of a server that stops answering. The event loop's latency under
 * twenty builds at once is measured by `npm run bench -- documents`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../../contract/messages.js';
import { closeWorkerPools, workerPoolSettings } from '../../../server/lib/worker-pool.js';
import { renderInvoicePdf } from '../../../server/payments/invoice-pdf.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';

let t: TestApp;
let owner: FixtureUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.app);
});
afterAll(async () => {
  await closeWorkerPools();
  await t?.close();
});

const requisites = { name: 'ООО «Ромашка»', inn: '7707083893', kpp: '773601001', address: '101000, г. Москва, ул. Мясницкая, д. 1' };

async function createInvoice(key: string) {
  const response = await call(t.app, 'POST', '/api/v1/tokens/invoices', { token: owner.token, body: { package_id: 'team', requisites, idempotency_key: key } });
  expect(response.status).toBe(200);
  return response.body as { id: string; invoice_number: number; created_at: string; tokens: number; amount_rub: number };
}

const fetchPdf = (id: string) => t.app.inject({ method: 'GET', url: `/api/v1/tokens/invoices/${id}/pdf`, headers: { authorization: `Bearer ${owner.token}` } });

/** The PDF without what differs between two builds of one document: its creation time and the file ID pdfkit derives from it. */
const withoutBuildTime = (pdf: Buffer) =>
  pdf
    .toString('latin1')
    .replace(/\(D:\d{14}Z\)/, '(D:build-time)')
    .replace(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/, '/ID [build-time]');

describe('invoice PDFs in the document pool', () => {
  it('builds the same document the event loop built', async () => {
    const invoice = await createInvoice('pool-same');
    const response = await fetchPdf(invoice.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const inLoop = await renderInvoicePdf({
      number: invoice.invoice_number,
      createdAt: new Date(invoice.created_at),
      buyer: requisites,
      seller: t.config.payments.seller,
      packageName: 'Команда',
      tokens: invoice.tokens,
      amountKopecks: invoice.amount_rub * 100,
    });
    expect(response.rawPayload.length).toBe(inLoop.length);
    expect(withoutBuildTime(response.rawPayload)).toBe(withoutBuildTime(inLoop));
  });

  it('refuses documents past its queue with 503, Retry-After and a Russian message, and builds again once free', async () => {
    const saved = { threads: workerPoolSettings.documentThreads, queue: workerPoolSettings.documentQueue };
    const invoice = await createInvoice('pool-busy');
    await closeWorkerPools();
    // One thread and no queue: while a fresh thread builds the first PDF (hundreds of ms), the others find no room.
    workerPoolSettings.documentThreads = 1;
    workerPoolSettings.documentQueue = 0;
    try {
      const responses = await Promise.all(Array.from({ length: 4 }, () => fetchPdf(invoice.id)));
      const statuses = responses.map((response) => response.statusCode).sort();
      // Before: four PDFs built at once in the event loop, all 200.
      expect(statuses[0]).toBe(200);
      expect(statuses.at(-1)).toBe(503);
      for (const refused of responses.filter((response) => response.statusCode === 503)) {
        expect(refused.json()).toEqual({ error: apiMessages.documentsBusy, code: 'DOCUMENTS_BUSY' });
        expect(refused.headers['retry-after']).toBe('5');
      }
      expect((await fetchPdf(invoice.id)).statusCode).toBe(200);
    } finally {
      await closeWorkerPools();
      workerPoolSettings.documentThreads = saved.threads;
      workerPoolSettings.documentQueue = saved.queue;
    }
  });
});
