import { createFileRoute, Link } from '@tanstack/react-router';
import { readStep1Input, saveStep1Input } from '@/features/projects/create-draft';
import { Step1Form } from '@/features/projects/components/Step1Form';
import '@/features/projects/projects.css';

export const Route = createFileRoute('/_app/projects/create/step1')({
  component: Step1Route,
});

function Step1Route() {
  const navigate = Route.useNavigate();
  return (
    <section className="page page--narrow">
      <Link to="/projects" className="link back-link">
        ← Проекты
      </Link>
      <h1>Новый проект</h1>
      <Step1Form
        initial={readStep1Input()}
        onDraftChange={saveStep1Input}
        onSubmit={(data) => {
          saveStep1Input({ ...data, target_cpa: data.target_cpa ?? undefined });
          void navigate({ to: '/projects/create/step2' });
        }}
      />
    </section>
  );
}
