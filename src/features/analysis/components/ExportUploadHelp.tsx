import type { AnalysisNotice } from '@contract/analysis-results.js';

/**
 * Under the export buttons: how each file is uploaded, what its ids do, and — when the analysed Direct
 * campaigns came without ids (the `NO_IDS` notice) — that Commander would create them anew.
 */
export function ExportUploadHelp({ notices }: { notices: AnalysisNotice[] }) {
  const noIds = notices.find((notice) => notice.code === 'NO_IDS');
  return (
    <div className="analysis-export__help">
      {noIds && (
        <p className="form-error" role="alert" data-testid="export-no-ids">
          {noIds.message}
        </p>
      )}
      <details className="details" open={Boolean(noIds)}>
        <summary>Как загрузить файл</summary>
        <h3>Яндекс Директ</h3>
        <ul>
          <li>
            Директ Коммандер: «Импорт объявлений из таблицы» — выберите CSV или XLSX, проверьте, что столбцы распознаны, импортируйте и отправьте
            изменения на сервер. В CSV все изменённые кампании вместе.
          </li>
          <li>
            Веб-интерфейс Директа принимает только XLS/XLSX, одну кампанию на файл: «Управление кампаниями с помощью XLS/XLSX» → «Загрузка из XLS/XLSX».
            Поэтому XLSX — отдельный файл на каждую кампанию; если кампаний несколько, они приходят ZIP-архивом: распакуйте его и загрузите файлы по
            одному.
          </li>
          <li>
            Столбцы «ID кампании», «ID группы», «ID фразы», «ID объявления» взяты из импорта: по ним Директ обновляет существующие кампании. Строка без
            ID создаёт новый объект.
          </li>
          <li>Минус-слова записаны так, как их читает Директ: «-своими руками -вакансии».</li>
          <li>Файл не удаляет фразы: дубли, которые вы решили убрать, удалите в Директе вручную.</li>
        </ul>
        <h3>Google Ads Editor</h3>
        <ul>
          <li>«Аккаунт» → «Импорт» → «Из файла…», выберите CSV, проверьте изменения, сохраните их и опубликуйте.</li>
          <li>Editor находит кампании и группы по названиям: не переименовывайте их до загрузки.</li>
          <li>
            Минус-слова фраз Директа (кросс-минусовка) выгружены минус-словами групп; макросы Директа в ссылках заменены параметрами ValueTrack
            ({'{campaign_id}'} → {'{campaignid}'}), а те, у которых нет замены, убраны.
          </li>
          <li>
            Объявления Директа становятся адаптивными: заголовки и описания собраны из заголовков, текста, быстрых ссылок, уточнений и фраз группы.
            Объявление, из которого не набрать 3 заголовка и 2 описания, в файл не попадает — после скачивания экран перечислит такие объявления.
          </li>
        </ul>
        <p className="muted">Открыть файл для просмотра удобнее в XLSX: CSV, открытый в Excel, может показать «#ИМЯ?» вместо минус-слов; не сохраняйте CSV из Excel перед загрузкой.</p>
      </details>
    </div>
  );
}
