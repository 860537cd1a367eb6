import './layout.css';

export const SUPPORT_CHAT_URL = 'https://t.me/reklama_lab_support';

/** The static documents of public/ (also precached by the service worker for offline reading). */
export const LEGAL_DOCUMENTS = [
  { href: '/agreement.pdf', title: 'Пользовательское соглашение' },
  { href: '/policy.pdf', title: 'Политика обработки персональных данных' },
  { href: '/oferta.pdf', title: 'Публичная оферта' },
] as const;

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="app-footer">
      <div className="app-footer__inner">
        <a className="app-footer__support" href={SUPPORT_CHAT_URL} target="_blank" rel="noopener noreferrer">
          <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" className="app-footer__icon">
            <path
              fill="currentColor"
              d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2zm3 5v2h10V9H7zm0 4v2h7v-2H7z"
            />
          </svg>
          Чат поддержки
        </a>
        <nav className="app-footer__docs" aria-label="Документы">
          {LEGAL_DOCUMENTS.map((doc) => (
            <a key={doc.href} href={doc.href} target="_blank" rel="noopener">
              {doc.title}
            </a>
          ))}
        </nav>
        <p className="app-footer__copyright">© {year} ООО «Реклама Лаб»</p>
      </div>
    </footer>
  );
}
