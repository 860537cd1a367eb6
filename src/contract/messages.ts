/**
 * Every user-facing message of the spec, in one place, shared by the PWA forms and the API
 * validation, so the server answers in exactly the words the forms show.
 */
export const validationMessages = {
  emailRequired: 'Введите email',
  emailInvalid: 'Некорректный email',
  passwordRequired: 'Введите пароль',
  firstNameRequired: 'Введите имя',
  firstNameMin: 'Имя должно содержать минимум 2 символа',
  lastNameRequired: 'Введите фамилию',
  lastNameMin: 'Фамилия должна содержать минимум 2 символа',
  passwordMin: 'Пароль должен содержать минимум 8 символов',
  passwordLowercase: 'Пароль должен содержать строчные латинские буквы',
  passwordUppercase: 'Пароль должен содержать заглавные латинские буквы',
  passwordDigit: 'Пароль должен содержать цифры',
  termsRequired: 'Необходимо дать согласие на обработку данных.',
  organizationType: 'Выберите тип организации',
  organizationFields: 'Заполните обязательные поля для выбранного типа организации',
  organizationNameMin: 'Название организации должно содержать минимум 2 символа',
  invitationCodeMin: 'Код приглашения должен содержать минимум 5 символов',
  invitationCodeMax: 'Код приглашения не длиннее 20 символов',
  tokenRequired: 'Ссылка недействительна',
  passwordsMismatch: 'Пароли не совпадают',
} as const;

/** Fallback messages of spec section 8, used when the server gives none. */
export const fallbackMessages = {
  login: 'Ошибка входа в систему',
  register: 'Ошибка регистрации',
  resetRequest: 'Ошибка при запросе восстановления пароля',
  newPassword: 'Ошибка при установке нового пароля',
  switchOrganization: 'Ошибка при смене организации',
  loadOrganization: 'Ошибка загрузки организации',
  updateOrganization: 'Ошибка обновления организации',
  loadMembers: 'Ошибка загрузки участников',
  removeMember: 'Ошибка удаления участника',
  loadInvitationCode: 'Ошибка загрузки кода приглашения',
  regenerateInvitationCode: 'Ошибка обновления кода приглашения',
} as const;

/** Messages the API answers with (Russian, as the UI shows them). */
export const apiMessages = {
  invalidCredentials: 'Неверный email или пароль',
  emailTaken: 'Пользователь с таким email уже зарегистрирован',
  invitationCodeUnknown: 'Код приглашения не найден',
  alreadyMember: 'Вы уже состоите в этой организации',
  unauthorized: 'Unauthorized',
  refreshInvalid: 'Сессия истекла, войдите снова',
  forbidden: 'Недостаточно прав',
  notFound: 'Не найдено',
  tooManyRequests: 'Слишком много запросов. Попробуйте позже.',
  internal: 'Внутренняя ошибка сервера',
  emailTokenInvalid: 'Ссылка недействительна или устарела',
  resetRequested: 'Если такой email зарегистрирован, мы отправили на него ссылку для восстановления пароля',
  passwordChanged: 'Пароль изменён',
  emailVerified: 'Email подтверждён',
  verificationSent: 'Письмо с подтверждением отправлено',
  alreadyVerified: 'Email уже подтверждён',
  insufficientTokens: 'Недостаточно токенов на балансе',
  cannotRemoveOwner: 'Нельзя удалить владельца организации',
  cannotRemoveSelf: 'Нельзя удалить самого себя',
  notMember: 'Вы не состоите в этой организации',
  noOrganization: 'Вы не состоите ни в одной организации',
  currentPasswordInvalid: 'Неверный текущий пароль',
} as const;

/** Projects: the creation/edit form rules and the import answers (issue 4). */
export const projectMessages = {
  nameRequired: 'Введите название проекта',
  nameMin: 'Название проекта должно содержать минимум 2 символа',
  nameMax: 'Название проекта не длиннее 200 символов',
  siteUrlRequired: 'Введите адрес сайта',
  siteUrlInvalid: 'Некорректный адрес сайта',
  platformRequired: 'Выберите рекламную платформу',
  regionMax: 'Регион не длиннее 200 символов',
  targetCpaInvalid: 'Целевая цена конверсии должна быть положительным числом',
  sortInvalid: 'Некорректная сортировка',
  importModeInvalid: 'Выберите режим импорта: заменить или добавить',
  directTokenRequired: 'Введите OAuth-токен Яндекс Директа',
  clientLoginInvalid: 'Некорректный Client-Login',
  projectNotFound: 'Проект не найден',
  campaignNotFound: 'Кампания не найдена',
  draftNotFound: 'Предпросмотр импорта не найден или устарел. Загрузите файлы ещё раз',
  noFiles: 'Выберите хотя бы один файл',
  emptyFile: 'Файл «{file}» пустой',
  fileTooLarge: 'Файл «{file}» больше 50 МБ',
  notMultipart: 'Загрузите файлы формой multipart/form-data',
  tooManyFiles: 'Слишком много файлов в одной загрузке (не больше 20)',
  importFailed: 'Файлы не удалось импортировать: исправьте ошибки и загрузите их ещё раз',
  importNothingFound: 'В файлах не найдено ни одной кампании',
  importCrashed: 'Не удалось прочитать файлы. Проверьте, что это выгрузка кампаний в формате CSV или XLSX',
  directApiFailed: 'Не удалось загрузить кампании из API Яндекс Директа',
  deleteForbidden: 'Удалить проект может его автор, владелец или администратор организации',
} as const;

/** Organizations: settings form and member management (issue 2). */
export const organizationMessages = {
  bodyInvalid: 'Передайте поля организации: name и/или plan_type',
  planTypeInvalid: 'Некорректный тариф',
  planTypeAdminOnly: 'Тариф меняет только администратор платформы',
  memberNotFound: 'Участник не найден',
  cannotRemoveAdmin: 'Администратора организации может удалить только владелец',
  invitationCodeFailed: 'Не удалось создать уникальный код приглашения, попробуйте ещё раз',
} as const;

/** Tokens: history filters, cost calculation and admin credit (issue 2). */
export const tokenMessages = {
  pageInvalid: 'Номер страницы: целое число от 1',
  pageSizeInvalid: 'Размер страницы: целое число от 1 до 100',
  entryTypeInvalid: 'Неизвестный тип операции',
  dateInvalid: 'Некорректная дата: используйте формат ГГГГ-ММ-ДД',
  periodInvalid: 'Начало периода не может быть позже конца',
  campaignsRequired: 'Выберите хотя бы одну кампанию',
  campaignsTooMany: 'Не больше 1000 кампаний за один расчёт',
  countInvalid: 'Количество должно быть целым неотрицательным числом',
  countsRequired: 'Укажите для каждой кампании keywords_count и ads_count',
  campaignIdInvalid: 'Некорректный идентификатор кампании',
  campaignNameMax: 'Название кампании не длиннее 500 символов',
  analysisKindInvalid: 'Неизвестный вид анализа',
  creditFieldsRequired: 'Укажите сумму и причину начисления',
  amountInvalid: 'Сумма начисления должна быть целым положительным числом',
  amountTooLarge: 'Сумма начисления не больше 1 000 000 токенов',
  reasonRequired: 'Укажите причину начисления',
  reasonMax: 'Причина не длиннее 500 символов',
  recipientRequired: 'Укажите получателя: user_id или email',
  userNotFound: 'Пользователь не найден',
  idempotencyKeyInvalid: 'Ключ идемпотентности: от 1 до 200 символов',
} as const;

/**
 * Yandex Direct API v5 failures, as a person reads them (server/projects/yandex-direct/errors.ts maps
 * the API's error codes onto these). `{code}` is the API's error code.
 */
export const directApiMessages = {
  authServerUnavailable: 'Сервер авторизации Яндекс Директа временно недоступен. Попробуйте позже',
  serverUnavailable: 'Сервер API Яндекс Директа временно недоступен. Попробуйте позже',
  invalidToken: 'OAuth-токен Яндекс Директа недействителен или отозван. Получите новый токен и подключите API заново',
  registrationIncomplete: 'Доступ приложения к API Яндекс Директа ещё не одобрен: заявка на доступ не завершена',
  noRights: 'Нет прав на этот аккаунт Яндекс Директа. Проверьте Client-Login: это должен быть ваш логин или логин вашего клиента',
  loginNotInDirect: 'Этот логин не подключён к Яндекс Директу',
  noApiAccess: 'Нет доступа к API Яндекс Директа для этого аккаунта',
  methodLimit: 'Превышен лимит запросов к API Яндекс Директа. Попробуйте позже',
  tooManyConcurrent: 'Слишком много одновременных запросов к API Яндекс Директа. Попробуйте позже',
  notEnoughUnits: 'Закончились баллы API Яндекс Директа. Баллы начисляются каждый час, попробуйте позже',
  reportQueueFull: 'Очередь отчётов Яндекс Директа заполнена. Попробуйте позже',
  invalidRequest: 'API Яндекс Директа отклонил запрос (код {code})',
  objectNotFound: 'Объект не найден в аккаунте Яндекс Директа',
  unknown: 'Ошибка API Яндекс Директа (код {code})',
  network: 'Не удалось связаться с API Яндекс Директа. Попробуйте позже',
  badResponse: 'API Яндекс Директа вернул ответ, который не удалось прочитать',
  reportNotReady: 'Отчёт Яндекс Директа не был готов вовремя. Попробуйте позже',
  statsSkipped: 'Статистика не загружена: {reason}',
  searchQueriesSkipped: 'Поисковые запросы не загружены: {reason}',
} as const;
