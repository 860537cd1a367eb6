import { it } from 'vitest';
import { analyse } from '/work/wt-units/tests/server/analysis-engine/helpers.js';
import { flowerShop, flowerShopSettings } from '/work/wt-units/tests/fixtures/analysis/flower-shop.js';
it('probe', async () => {
  const r = await analyse(flowerShop(), flowerShopSettings);
  for (const f of r.scoring.findings) console.log(f.checkId, f.target.key, f.money, f.moneyPerMonth, JSON.stringify(f.evidence), f.items ? JSON.stringify(f.items.map(i=>i.evidence)) : '');
  console.log(JSON.stringify(r.money, null, 1));
  console.log(r.scoring.account.score, r.scoring.account.moneyPerMonth, JSON.stringify(r.scoring.byCheck.map(c=>[c.checkId,c.moneyPerMonth])));
  console.log(JSON.stringify(r.semantic.nonTargetQueries));
});
