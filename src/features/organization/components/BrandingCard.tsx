import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { toast } from 'sonner';
import { reportMessages } from '@contract/messages.js';
import { DEFAULT_REPORT_ACCENT, REPORT_LOGO_MAX_BYTES, reportLogoMediaTypes, type ReportBranding } from '@contract/reports.js';
import { messageOf } from '@/app/session';
import { QueryError } from '@/components/ui/QueryError';
import { LoadingLine, notSavedOffline } from '@/components/ui/PageStates';
import { brandingQueryOptions, reportKeys, updateBranding } from '@/lib/reports-api';

export const BRANDING_SAVED = 'Оформление отчётов сохранено';

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });

/**
 * /organization: how client reports (the PDF and the share page) carry the organization: the name on
 * them, the accent colour and a logo (PNG or JPEG up to 256 KB; the server checks the image itself).
 */
export function BrandingCard() {
  const queryClient = useQueryClient();
  const branding = useQuery(brandingQueryOptions());
  const [name, setName] = useState('');
  const [color, setColor] = useState(DEFAULT_REPORT_ACCENT);
  const [logo, setLogo] = useState<string | null>(null);
  const [logoError, setLogoError] = useState<string | null>(null);

  useEffect(() => {
    if (!branding.data) return;
    setName(branding.data.report_name ?? '');
    setColor(branding.data.accent_color ?? DEFAULT_REPORT_ACCENT);
    setLogo(branding.data.logo);
  }, [branding.data]);

  const save = useMutation({
    mutationFn: () => updateBranding({ report_name: name.trim() || null, accent_color: color, logo }),
    onSuccess: (saved: ReportBranding) => {
      queryClient.setQueryData(reportKeys.branding(), saved);
      toast.success(BRANDING_SAVED);
    },
    onError: (error) => toast.error(messageOf(error, 'Не удалось сохранить оформление отчётов')),
  });

  const pickLogo = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!(reportLogoMediaTypes as readonly string[]).includes(file.type)) return setLogoError(reportMessages.logoInvalid);
    if (file.size > REPORT_LOGO_MAX_BYTES) return setLogoError(reportMessages.logoTooLarge);
    setLogoError(null);
    setLogo(await readAsDataUrl(file));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <section className="card organization-card" aria-labelledby="branding-title">
      <div className="card__header">
        <h2 id="branding-title" className="card__title">
          Оформление отчётов для клиентов
        </h2>
      </div>
      <LoadingLine query={branding} label="Загрузка оформления…" offlineText={notSavedOffline('оформление отчётов')} />
      {branding.isError && <QueryError error={branding.error} onRetry={() => void branding.refetch()} />}
      {branding.data && (
        <form className="form" onSubmit={submit} noValidate aria-label="Оформление отчётов">
          <div className="field">
            <label className="field__label" htmlFor="report-name">
              Название в отчёте
            </label>
            <input id="report-name" className="input" maxLength={120} value={name} placeholder={branding.data.organization_name} onChange={(event) => setName(event.target.value)} />
            <p className="field__hint muted">Пусто — название организации.</p>
          </div>
          <div className="field">
            <label className="field__label" htmlFor="report-color">
              Цвет акцентов
            </label>
            <input id="report-color" type="color" className="branding__color" value={color} onChange={(event) => setColor(event.target.value)} />
          </div>
          <div className={`field${logoError ? ' field--invalid' : ''}`}>
            <label className="field__label" htmlFor="report-logo">
              Логотип (PNG или JPEG, до 256 КБ)
            </label>
            {logo && <img src={logo} alt="Логотип в отчёте" className="branding__logo" />}
            {/* The browser's own file button speaks the browser's language; this one speaks Russian. */}
            <input id="report-logo" type="file" className="visually-hidden branding__file" accept={reportLogoMediaTypes.join(',')} onChange={(event) => void pickLogo(event)} />
            <div className="branding__logo-actions">
              <label htmlFor="report-logo" className="btn btn--secondary btn--small">
                {logo ? 'Заменить файл' : 'Выбрать файл'}
              </label>
              {logo && (
                <button type="button" className="btn btn--ghost btn--small" onClick={() => setLogo(null)}>
                  Убрать логотип
                </button>
              )}
            </div>
            {logoError && (
              <p className="field__error" role="alert">
                {logoError}
              </p>
            )}
          </div>
          {branding.data.can_edit && (
            <button type="submit" className="btn btn--primary" disabled={save.isPending}>
              Сохранить оформление
            </button>
          )}
        </form>
      )}
    </section>
  );
}
