import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { formatDate } from '@contract/format';
import { SHARE_LINK_DEFAULT_DAYS, shareReportPath, type ShareLink } from '@contract/reports.js';
import { messageOf } from '@/app/session';
import { copyText } from '@/lib/clipboard';
import { createShareLink, downloadReportPdf, reportKeys, revokeShareLink, shareLinksQueryOptions } from '@/lib/reports-api';

const expiryChoices = [7, 30, 90];
const stateLabels: Record<ShareLink['state'], string> = { active: 'действует', expired: 'истекла', revoked: 'отозвана' };

/**
 * The results screen's client report: the PDF to send, and read-only links to the same report for a
 * client without an account (made, copied, revoked here). The link's address is shown once, right after
 * it is made: the server keeps only its hash.
 */
export function ClientReportCard({ analysisId }: { analysisId: string }) {
  const queryClient = useQueryClient();
  const links = useQuery(shareLinksQueryOptions(analysisId));
  const [days, setDays] = useState(SHARE_LINK_DEFAULT_DAYS);
  const [created, setCreated] = useState<string | null>(null);
  const download = useMutation({
    mutationFn: () => downloadReportPdf(analysisId),
    onError: (error) => toast.error(messageOf(error, 'Не удалось скачать отчёт, попробуйте ещё раз')),
  });
  const create = useMutation({
    mutationFn: () => createShareLink(analysisId, days),
    onSuccess: ({ token }) => {
      setCreated(`${window.location.origin}${shareReportPath(token)}`);
      void queryClient.invalidateQueries({ queryKey: reportKeys.shareLinks(analysisId) });
    },
    onError: (error) => toast.error(messageOf(error, 'Не удалось создать ссылку, попробуйте ещё раз')),
  });
  const revoke = useMutation({
    mutationFn: revokeShareLink,
    onSuccess: () => {
      toast.success('Ссылка отозвана: по ней отчёт больше не открывается');
      void queryClient.invalidateQueries({ queryKey: reportKeys.shareLinks(analysisId) });
    },
    onError: (error) => toast.error(messageOf(error, 'Не удалось отозвать ссылку')),
  });
  const copy = async (url: string) => {
    try {
      await copyText(url);
      toast.success('Ссылка скопирована');
    } catch {
      toast.error('Не удалось скопировать ссылку, выделите её и скопируйте вручную');
    }
  };

  return (
    <section className="card client-report" aria-labelledby="client-report-title">
      <h2 id="client-report-title" className="card__title">
        Отчёт для клиента
      </h2>
      <p className="muted">PDF с названием, логотипом и цветом вашей организации (настраиваются на странице организации): потери, оценка, главные замечания и план действий.</p>
      <div className="analysis-actions">
        <button type="button" className="btn btn--primary" onClick={() => download.mutate()} disabled={download.isPending} data-testid="download-report">
          {download.isPending ? 'Готовим PDF…' : 'Скачать отчёт PDF'}
        </button>
      </div>
      <h3 className="client-report__subtitle">Ссылка только для чтения</h3>
      <div className="client-report__share">
        <label>
          Действует{' '}
          <select value={days} onChange={(event) => setDays(Number(event.target.value))} aria-label="Срок действия ссылки">
            {expiryChoices.map((choice) => (
              <option key={choice} value={choice}>
                {choice} дней
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn--secondary" onClick={() => create.mutate()} disabled={create.isPending} data-testid="create-share-link">
          Создать ссылку
        </button>
      </div>
      {created && (
        <p className="client-report__created" role="status">
          <a href={created} target="_blank" rel="noopener noreferrer" className="link" data-testid="share-link-url">
            {created}
          </a>{' '}
          <button type="button" className="btn btn--ghost btn--small" onClick={() => void copy(created)}>
            Скопировать
          </button>
          <br />
          <span className="muted">Сохраните адрес сейчас: потом его можно только отозвать и создать новый.</span>
        </p>
      )}
      {links.data && links.data.length > 0 && (
        <ul className="client-report__links" aria-label="Ссылки на отчёт">
          {links.data.map((link) => (
            <li key={link.id}>
              <span>
                от {formatDate(link.created_at)}
                {link.author ? `, ${link.author}` : ''} · до {formatDate(link.expires_at)} · {stateLabels[link.state]}
              </span>
              {link.state === 'active' && (
                <button type="button" className="btn btn--ghost btn--small" onClick={() => revoke.mutate(link.id)} disabled={revoke.isPending}>
                  Отозвать
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
