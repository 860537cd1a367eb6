import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from 'sonner';
import { adPlatformLabels } from '@contract/campaigns.js';
import type { ImportPreview } from '@contract/projects.js';
import { createProject, projectKeys } from '@/lib/projects-api';
import { StepIndicator } from '@/features/projects/components/StepIndicator';
import { ImportPreviewScreen } from '@/features/projects/components/ImportPreviewScreen';
import { ImportSourcePanel } from '@/features/projects/components/ImportSourcePanel';
import { clearCreateDraft, readPreview, requireValidStep1, savePreview } from '@/features/projects/create-draft';
import { CREATE_DIRECT_JOB_KEY } from '@/features/projects/direct-import-job';
import { ApiError } from '@/lib/api-client';
import '@/features/projects/projects.css';

export const Route = createFileRoute('/_app/projects/create/step2')({
  // Spec section 2: step 2 opens only with valid step 1 data; otherwise the user goes to step 1.
  beforeLoad: () => requireValidStep1(),
  component: Step2Route,
});

function Step2Route() {
  const { step1 } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  const queryClient = useQueryClient();
  const [preview, setPreview] = useState<ImportPreview | null>(() => readPreview());
  const [saveError, setSaveError] = useState<string | null>(null);

  const showPreview = (next: ImportPreview | null) => {
    savePreview(next);
    setPreview(next);
    setSaveError(null);
  };

  const save = useMutation({
    mutationFn: (withCampaigns: boolean) => createProject({ ...step1, draft_id: withCampaigns ? preview?.draft_id : undefined }),
    onSuccess: async (project) => {
      clearCreateDraft();
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
      toast.success(`Проект «${project.name}» создан`);
      void navigate({ to: '/projects/$id', params: { id: project.id } });
    },
    onError: (error) => {
      if (error instanceof ApiError && (error.body as { code?: string } | null)?.code === 'DRAFT_NOT_FOUND') showPreview(null);
      setSaveError(error.message);
    },
  });

  return (
    <section className="page page--narrow">
      <Link to="/projects/create/step1" className="link back-link">
        ← Шаг 1
      </Link>
      <h1>Новый проект</h1>
      <div className="card project-form">
        <StepIndicator step={2} />
        <p className="project-form__summary">
          <strong>{step1.name}</strong> · {step1.site_url} · {adPlatformLabels[step1.platform]}
        </p>
        {preview ? (
          <>
            <ImportPreviewScreen preview={preview} onChange={showPreview} />
            <div className="form__row">
              <button type="button" className="btn btn--secondary" onClick={() => showPreview(null)} disabled={save.isPending}>
                Загрузить другие данные
              </button>
            </div>
          </>
        ) : (
          <ImportSourcePanel platform={step1.platform} onPreview={showPreview} jobStorageKey={CREATE_DIRECT_JOB_KEY} />
        )}
        {saveError && (
          <div className="form-error" role="alert">
            {saveError}
          </div>
        )}
        <div className="form__row form__row--end">
          {!preview && (
            <button type="button" className="btn btn--ghost" disabled={save.isPending} onClick={() => save.mutate(false)}>
              Создать без кампаний
            </button>
          )}
          <button type="button" className="btn btn--primary" disabled={!preview || save.isPending} aria-busy={save.isPending} onClick={() => save.mutate(true)}>
            {save.isPending && <span className="spinner" role="status" aria-label="Сохранение" />}
            Сохранить проект
          </button>
        </div>
      </div>
    </section>
  );
}
