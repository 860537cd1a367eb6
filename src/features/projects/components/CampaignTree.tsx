import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AdGroup } from '@contract/campaigns.js';
import type { CampaignSummary } from '@contract/projects.js';
import { formatCountOf } from '@contract/format';
import { campaignTypeLabel, keywordLabel } from '@contract/labels';
import { campaignQueryOptions } from '@/lib/projects-api';
import { formatCount, formatMoney } from '@/features/projects/format';

/** Campaigns → groups with their counts; a group opens to its keywords and ads (loaded on demand). */
export function CampaignTree({ projectId, campaigns }: { projectId: string; campaigns: CampaignSummary[] }) {
  if (campaigns.length === 0) return <p className="muted">Кампаний пока нет. Загрузите выгрузку, чтобы увидеть их здесь.</p>;
  return (
    <ul className="campaign-tree" aria-label="Кампании">
      {campaigns.map((campaign) => (
        <CampaignNode key={campaign.id} projectId={projectId} campaign={campaign} />
      ))}
    </ul>
  );
}

function CampaignNode({ projectId, campaign }: { projectId: string; campaign: CampaignSummary }) {
  const [open, setOpen] = useState(false);
  const [openGroup, setOpenGroup] = useState<number | null>(null);
  // The whole campaign is fetched only when a group is opened.
  const document = useQuery({ ...campaignQueryOptions(projectId, campaign.id), enabled: openGroup !== null });
  return (
    <li className="campaign-tree__campaign">
      <button type="button" className="campaign-tree__toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="campaign-tree__caret" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span className="campaign-tree__name">{campaign.name}</span>
        {campaign.type && <span className="badge badge--muted">{campaignTypeLabel(campaign.type, campaign.placement)}</span>}
        <span className="campaign-tree__counts muted">
          {formatCountOf(campaign.groups_count, ['группа', 'группы', 'групп'])} · {formatCountOf(campaign.ads_count, ['объявление', 'объявления', 'объявлений'])} ·{' '}
          {formatCountOf(campaign.keywords_count, ['фраза', 'фразы', 'фраз'])}
        </span>
        {campaign.stats && <span className="campaign-tree__cost">{formatMoney(campaign.stats.cost)}</span>}
      </button>
      {open && (
        <ul className="campaign-tree__groups">
          {campaign.negative_keywords > 0 && <li className="muted">Минус-фразы на кампанию: {formatCount(campaign.negative_keywords)}</li>}
          {campaign.groups.map((group, index) => (
            <li key={index} className="campaign-tree__group">
              <button type="button" className="campaign-tree__toggle" aria-expanded={openGroup === index} onClick={() => setOpenGroup(openGroup === index ? null : index)}>
                <span className="campaign-tree__caret" aria-hidden="true">
                  {openGroup === index ? '▾' : '▸'}
                </span>
                <span>{group.name || 'Без названия'}</span>
                <span className="campaign-tree__counts muted">
                  {formatCountOf(group.ads, ['объявление', 'объявления', 'объявлений'])} · {formatCountOf(group.keywords, ['фраза', 'фразы', 'фраз'])}
                  {group.negative_keywords > 0 && ` · ${formatCountOf(group.negative_keywords, ['минус-фраза', 'минус-фразы', 'минус-фраз'])}`}
                </span>
              </button>
              {openGroup === index &&
                (document.isPending ? (
                  <span className="spinner" role="status" aria-label="Загрузка группы" />
                ) : document.error ? (
                  <p className="field__error">{document.error.message}</p>
                ) : document.data?.groups[index] ? (
                  <GroupContent group={document.data.groups[index]} />
                ) : null)}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

const MAX_ROWS = 200;

function GroupContent({ group }: { group: AdGroup }) {
  return (
    <div className="group-content">
      {group.keywords.length > 0 && (
        <div className="table-wrap">
          <table className="table table--compact">
            <thead>
              <tr>
                <th>Фраза</th>
                <th>Минус-слова</th>
                <th>Ставка</th>
                <th>Показы</th>
                <th>Клики</th>
                <th>Расход</th>
                <th>Конверсии</th>
              </tr>
            </thead>
            <tbody>
              {group.keywords.slice(0, MAX_ROWS).map((keyword, index) => (
                <tr key={index}>
                  <td data-label="Фраза">{keywordLabel(keyword)}</td>
                  <td data-label="Минус-слова">{keyword.negativeWords.map((word) => `-${word}`).join(' ')}</td>
                  <td data-label="Ставка">{keyword.bid !== undefined ? formatMoney(keyword.bid) : '—'}</td>
                  <td data-label="Показы">{keyword.stats ? formatCount(keyword.stats.impressions) : '—'}</td>
                  <td data-label="Клики">{keyword.stats ? formatCount(keyword.stats.clicks) : '—'}</td>
                  <td data-label="Расход">{keyword.stats ? formatMoney(keyword.stats.cost) : '—'}</td>
                  <td data-label="Конверсии">{keyword.stats ? formatCount(keyword.stats.conversions) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {group.keywords.length > MAX_ROWS && <p className="muted">
              Показаны первые {MAX_ROWS} из {formatCountOf(group.keywords.length, ['фразы', 'фраз', 'фраз'])}.
            </p>}
        </div>
      )}
      {group.ads.length > 0 && (
        <ul className="ad-list">
          {group.ads.slice(0, MAX_ROWS).map((ad, index) => (
            <li key={index} className="ad-list__item">
              <strong>{ad.headlines.filter(Boolean).join(' — ') || 'Без заголовка'}</strong>
              {ad.texts.length > 0 && <p>{ad.texts.join(' ')}</p>}
              {(ad.displayUrl || ad.finalUrl) && <p className="muted">{ad.displayUrl ?? ad.finalUrl}</p>}
              {ad.sitelinks.length > 0 && <p className="muted">Быстрые ссылки: {ad.sitelinks.map((link) => link.title).join(' · ')}</p>}
              {ad.callouts.length > 0 && <p className="muted">Уточнения: {ad.callouts.join(' · ')}</p>}
            </li>
          ))}
        </ul>
      )}
      {group.negativeKeywords.length > 0 && <p className="muted">Минус-фразы группы: {group.negativeKeywords.join(', ')}</p>}
    </div>
  );
}
