/**
 * The engine thread reads the account's documents itself (server/analysis/stored-documents.ts): the
 * campaigns in the audit's order as the JSON they were stored as, and a campaign that a new import
 * removed meanwhile fails the run with «CAMPAIGNS_GONE» rather than auditing what is left.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CAMPAIGNS_GONE, readStoredDocuments } from '../../../server/analysis/stored-documents.js';
import { appWithAuditUser, projectWithCampaigns } from './helpers.js';

const context = appWithAuditUser();

describe('the documents the engine thread reads', () => {
  it('are the stored campaigns, in the order asked for', async () => {
    const { t, user } = context;
    const { campaignIds, campaigns } = await projectWithCampaigns(t.app, user);
    const order = [...campaignIds].reverse();
    const read = await readStoredDocuments({ connectionString: t.database.url, lowerBackendPriority: false, campaignIds: order, searchQueryIds: [] });
    expect(read.campaigns.map((text) => (JSON.parse(text) as { name: string }).name)).toEqual(order.map((id) => campaigns.find((c) => c.id === id)!.name));
    expect(read.searchQueries).toEqual([]);
  });

  it('refuse a campaign that is gone', async () => {
    const { t, user } = context;
    const { campaignIds } = await projectWithCampaigns(t.app, user);
    await expect(
      readStoredDocuments({ connectionString: t.database.url, lowerBackendPriority: false, campaignIds: [...campaignIds, randomUUID()], searchQueryIds: [] }),
    ).rejects.toThrow(CAMPAIGNS_GONE);
  });
});
