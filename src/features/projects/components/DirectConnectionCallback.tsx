import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import type { OAuthCallback } from '@contract/direct-connections.js';
import { directConnectionKeys, finishDirectConnection, takeDirectConnectionReturn } from '@/lib/direct-connections-api';
import { Spinner } from '@/components/ui/form';

/**
 * Where Yandex ID sends the person back: hands the code and state to the server (which checks the state is
 * this person's and exchanges the code), then returns to the screen that started the connection.
 */
export function DirectConnectionCallback({ callback }: { callback: OAuthCallback }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const finish = useMutation({
    mutationFn: finishDirectConnection,
    onSuccess: async (connection) => {
      await queryClient.invalidateQueries({ queryKey: directConnectionKeys.all });
      toast.success(`Аккаунт ${connection.login} подключён`);
      void navigate({ to: takeDirectConnectionReturn(), replace: true });
    },
  });
  // A state is spent by its first use: send it once, also when the screen is mounted twice.
  const sent = useRef(false);
  const { mutate } = finish;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    mutate(callback);
  }, [mutate, callback]);

  if (finish.isError) {
    return (
      <section className="page">
        <div className="state-card state-card--error" role="alert">
          <h1>Аккаунт не подключён</h1>
          <p>{finish.error.message}</p>
          <Link to="/projects" className="btn btn--primary">
            К проектам
          </Link>
        </div>
      </section>
    );
  }
  return (
    <section className="page state-line">
      <Spinner label="Подключаем аккаунт Яндекс Директа" />
      <p>Подключаем аккаунт Яндекс Директа…</p>
    </section>
  );
}
