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
  passwordCommon: 'Этот пароль слишком распространён и легко подбирается: придумайте другой',
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
  invalidData: 'Данные содержат недопустимые значения или символы',
  idempotencyKeyOtherRequest: 'Этот ключ идемпотентности уже использован для запроса с другими параметрами. Для нового запроса создайте новый ключ',
  accountBlocked: 'Учётная запись заблокирована администратором платформы. Обратитесь в поддержку',
  currentPasswordTooManyTries: 'Слишком много попыток ввести текущий пароль. Попробуйте через {minutes} мин.',
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
  importTooComplex:
    'Файлы слишком большие или сложные: сервер не смог разобрать их в отведённые время и память. Разделите выгрузку на части (например, по кампаниям) и загрузите их по очереди',
  importInProgress: 'Предыдущая загрузка файлов ещё разбирается. Дождитесь её окончания и повторите',
  importBusy: 'Сервер сейчас разбирает много загрузок. Повторите через минуту',
  directApiFailed: 'Не удалось загрузить кампании из API Яндекс Директа',
  directApiNotConnected: 'Проект не подключён к API Яндекс Директа: загрузите кампании через API, указав OAuth-токен',
  directTokenUnreadable: 'Сохранённый токен Яндекс Директа не удалось прочитать: подключите API заново, указав OAuth-токен',
  directApiEmpty: 'В аккаунте Яндекс Директа не найдено ни одной кампании (архивные не загружаются)',
  importJobNotFound: 'Загрузка кампаний не найдена',
  importQueueUnavailable: 'Очередь задач недоступна. Попробуйте позже',
  directImportRunning: 'Загрузка кампаний из API Яндекс Директа уже идёт. Дождитесь её окончания и попробуйте снова',
  directImportInterrupted: 'Загрузка кампаний из API Яндекс Директа прервалась: сервер перезапускался. Запустите её ещё раз',
  directImportNotStarted: 'Загрузка кампаний из API Яндекс Директа не началась: очередь задач не ответила. Запустите её ещё раз',
  directImportTimedOut: 'Загрузка кампаний из API Яндекс Директа шла слишком долго и была остановлена. Попробуйте ещё раз',
  deleteForbidden: 'Удалить проект может его автор, владелец или администратор организации',
} as const;

/**
 * Thresholds of the analysis (project settings and a start's overrides): the start form, the project
 * settings form and the API answer with the same words. `{min}` is the field's smallest allowed value.
 */
export const projectSettingsMessages = {
  numberInvalid: 'Введите неотрицательное число',
  integer: 'Введите целое число',
  min: 'Не меньше {min}',
  shareMax: 'Не больше 100 %',
  positive: 'Введите число больше нуля',
  competitorsInvalid: 'Перечислите конкурентов списком названий',
  competitorTooLong: 'Название конкурента — не длиннее 100 символов',
  tooManyCompetitors: 'Не больше 200 конкурентов',
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
  analysisKindInvalid: 'Неизвестный вид анализа: укажите scoring или semantic (проверка посадочных страниц и ИИ-план оплачиваются отдельно)',
  creditFieldsRequired: 'Укажите сумму и причину начисления',
  amountInvalid: 'Сумма начисления должна быть целым положительным числом',
  amountTooLarge: 'Сумма начисления не больше 1 000 000 токенов',
  reasonRequired: 'Укажите причину начисления',
  reasonMax: 'Причина не длиннее 500 символов',
  recipientRequired: 'Укажите получателя: user_id или email',
  userNotFound: 'Пользователь не найден',
  idempotencyKeyInvalid: 'Ключ идемпотентности: от 1 до 200 символов',
} as const;

/** The platform administrator's area (issue 12): users, organizations, runs, audit log. */
export const adminMessages = {
  userNotFound: 'Пользователь не найден',
  organizationNotFound: 'Организация не найдена',
  runNotFound: 'Запуск не найден',
  cannotBlockSelf: 'Нельзя заблокировать самого себя',
  blockReasonMax: 'Причина не длиннее 500 символов',
  runKindInvalid: 'Неизвестный вид запуска: audit, page-check или ai-plan',
  runNotCancellable: 'Запуск уже завершён: отменять нечего',
  runNotRetryable: 'Повторить можно только неудавшийся, отменённый или зависший запуск',
  retryAuthorGone: 'Автора запуска больше нет в организации: повторить от его имени нельзя',
  retryCampaignsGone: 'Кампаний этого анализа больше нет в проекте: повторить его нельзя',
  runFilterInvalid: 'Фильтр: failed (неудавшиеся) или stuck (зависшие)',
  daysInvalid: 'Период: целое число дней от 7 до 365',
  jobsUnavailable: 'Очередь задач не запущена на этом сервере: повторить запуск нельзя',
} as const;

/** Buying tokens and team balances (src/contract/payments.ts, server/payments/). */
export const paymentMessages = {
  idempotencyKeyInvalid: 'Ключ идемпотентности: от 1 до 200 символов',
  packageRequired: 'Выберите пакет токенов',
  packageUnknown: 'Такого пакета токенов нет',
  requisitesRequired: 'Укажите реквизиты организации',
  nameRequired: 'Укажите название организации',
  nameMax: 'Название не длиннее 300 символов',
  innInvalid: 'ИНН: 10 цифр для организации или 12 для ИП',
  kppInvalid: 'КПП: 9 символов',
  addressRequired: 'Укажите юридический адрес',
  addressMax: 'Адрес не длиннее 500 символов',
  cardUnavailable: 'Оплата картой не настроена. Выберите оплату по счёту',
  providerUnavailable: 'Платёжный сервис временно недоступен. Попробуйте позже',
  notificationInvalid: 'Некорректное уведомление',
  paymentNotFound: 'Платёж не найден',
  invoiceNotFound: 'Счёт не найден',
  invoiceNotPending: 'Счёт уже оплачен или отменён',
  statusInvalid: 'Неизвестный статус платежа',
  directionInvalid: 'Направление перевода: to_member или from_member',
  transferAmountInvalid: 'Количество токенов: целое число от 1',
  transferFieldsRequired: 'Укажите направление и количество токенов',
  transferOwnerOnly: 'Переводить токены может только владелец организации',
  transferSelf: 'Нельзя перевести токены самому себе',
  memberNotFound: 'Участник не найден',
  ownerInsufficient: 'На вашем балансе недостаточно токенов',
  memberInsufficient: 'На балансе участника недостаточно токенов',
  requisitesManagersOnly: 'Реквизиты организации меняют владелец и администраторы',
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

/** Connecting a Yandex Direct account through Yandex ID (OAuth). */
export const directConnectionMessages = {
  notConfigured: 'Подключение через Яндекс ID не настроено на этом сервере. Вставьте OAuth-токен Яндекс Директа вручную',
  stateInvalid: 'Ссылка подключения устарела или начата другим пользователем. Начните подключение заново',
  stateRequired: 'Нет параметра state: откройте подключение из приложения заново',
  accessDenied: 'Подключение отменено: доступ к Яндекс Директу в Яндекс ID не выдан',
  exchangeFailed: 'Яндекс ID не выдал доступ. Начните подключение заново',
  loginUnknown: 'Не удалось узнать логин подключённого аккаунта в Яндекс ID. Попробуйте ещё раз',
  expired: 'Доступ к аккаунту {login} истёк или отозван в Яндекс ID. Подключите аккаунт заново',
  notFound: 'Подключение не найдено',
  forbidden: 'Отключить аккаунт может тот, кто его подключил, или владелец организации',
} as const;

/** Landing-page relevance: API answers and the fetcher's per-page errors (shown in the results table). */
export const relevanceMessages = {
  urlsRequired: 'Выберите хотя бы одну страницу',
  urlsTooMany: 'За один анализ можно проверить не больше 100 страниц',
  urlInvalid: 'Некорректный адрес страницы: нужен http:// или https://',
  idempotencyKeyInvalid: 'Некорректный ключ идемпотентности',
  noLandingUrls: 'В объявлениях проекта нет ссылок на посадочные страницы',
  analysisNotFound: 'Анализ релевантности не найден',
  resultsNotReady: 'Результаты ещё не готовы',
  alreadyFinished: 'Анализ уже завершён, отменить его нельзя',
  queueUnavailable: 'Очередь задач недоступна. Попробуйте позже',
  idempotencyKeyReused: 'Ключ идемпотентности уже использован для другой операции',
  debitReason: 'Анализ релевантности посадочных страниц',
  refundReason: 'Возврат: анализ релевантности не выполнен',
  cancelRefundReason: 'Возврат: анализ релевантности отменён',
  refusedRefundReason: 'Возврат за страницы во внутренней сети, которые не проверялись: {count}',
  interrupted: 'Анализ прерван перезапуском сервера, токены возвращены',
  failed: 'Не удалось выполнить анализ, токены возвращены',
  fetchPrivateHost: 'Адрес ведёт во внутреннюю сеть ({address}): такие страницы не проверяются',
  fetchBadScheme: 'Поддерживаются только адреса http:// и https://',
  fetchBadUrl: 'Некорректный адрес страницы',
  fetchDns: 'Домен не найден ({host})',
  fetchTimeout: 'Страница не ответила за {seconds} с',
  fetchTooLarge: 'Страница больше {megabytes} МБ: прочитано только начало',
  fetchTooManyRedirects: 'Слишком много перенаправлений (больше {count})',
  fetchRedirectNoLocation: 'Перенаправление без адреса (нет заголовка Location)',
  fetchNetwork: 'Не удалось соединиться с сайтом: {reason}',
  fetchCancelled: 'Проверка отменена',
} as const;

/** Analyses: start, progress, decisions, export, cancel (issue 5). */
export const analysisMessages = {
  campaignsRequired: 'Выберите хотя бы одну кампанию',
  campaignsTooMany: 'Не больше 1000 кампаний в одном анализе',
  campaignsNotInProject: 'Некоторые кампании не найдены в проекте. Обновите страницу и выберите кампании заново',
  idempotencyKeyRequired: 'Ключ идемпотентности: от 1 до 200 символов',
  idempotencyKeyReused: 'Этот ключ идемпотентности уже использован для другого анализа',
  insufficientTokens: 'Недостаточно токенов на балансе',
  insufficientTokensDetail: 'Стоимость анализа — {required} токенов, на балансе {balance}. Пополните баланс на странице «Токены»',
  pageInvalid: 'Номер страницы: целое число от 1',
  pageSizeInvalid: 'Размер страницы: целое число от 1 до 100',
  statusInvalid: 'Неизвестный статус анализа',
  analysisNotFound: 'Анализ не найден',
  jobsUnavailable: 'Очередь анализов сейчас недоступна. Попробуйте позже',
  notCompleted: 'Анализ ещё не завершён',
  alreadyFinished: 'Анализ уже завершён, отменить его нельзя',
  cancelForbidden: 'Отменить анализ может его автор, владелец или администратор организации',
  decisionsRequired: 'Передайте списки accepted и rejected',
  suggestionIdInvalid: 'Некорректный идентификатор предложения',
  tooManyDecisions: 'Слишком много предложений в одном запросе',
  valueInvalid: 'Исправленное значение: строка не длиннее 1000 символов',
  acceptedAndRejected: 'Предложение не может быть одновременно принято и отклонено',
  unknownSuggestions: 'Предложения не найдены в результатах анализа: {ids}',
  exportPlatformInvalid: 'Выгрузка возможна для Яндекс Директа (yandex_direct) или Google Ads (google_ads)',
  exportFormatInvalid: 'Формат выгрузки: csv или xlsx',
  exportFormatUnavailable: 'Для Google Ads выгрузка доступна только в CSV (Google Ads Editor)',
  nothingToExport: 'Нет принятых изменений для выгрузки: примите хотя бы одно предложение',
  campaignsChanged: 'Кампании проекта изменились после анализа (новый импорт). Запустите анализ заново, чтобы выгрузить изменения',
  failed: 'Не удалось выполнить анализ. Токены возвращены на баланс',
  campaignsGone: 'Кампании анализа удалены из проекта (новый импорт). Токены возвращены на баланс',
  interrupted: 'Анализ прерван перезапуском сервера. Токены возвращены на баланс',
  timedOut: 'Анализ выполнялся слишком долго и был остановлен. Токены возвращены на баланс',
  outOfMemory: 'Анализ не поместился в память, отведённую одному анализу. Выберите меньше кампаний за один запуск. Токены возвращены на баланс',
  exportTooLarge: 'Выгрузка слишком большая: сервер не смог собрать файл в отведённые время и память. Попробуйте формат CSV или примите меньше изменений',
} as const;

/** The paged results API (findings, suggestions, bulk decisions, semantic sections, scores). */
export const analysisPageMessages = {
  pageInvalid: 'Номер страницы: целое число от 1',
  pageSizeInvalid: 'Размер страницы: целое число от 1 до 500',
  textInvalid: 'Поиск: строка не длиннее 200 символов',
  severityInvalid: 'Важность: high, medium или low',
  checkInvalid: 'Некорректный идентификатор проверки',
  campaignKeyInvalid: 'Кампания: ключ вида c0',
  groupKeyInvalid: 'Группа: ключ вида c0g1',
  sortInvalid: 'Неизвестный порядок сортировки',
  kindInvalid: 'Тип предложения: negative_keyword, cross_minus или ad_field',
  categoryInvalid: 'Неизвестная категория минус-слов',
  suggestionStatusInvalid: 'Статус предложения: ready или check_by_hand',
  decisionFilterInvalid: 'Решение: accepted, rejected или undecided',
  decisionInvalid: 'Решение: accepted, rejected или undecided',
  filterInvalid: 'Фильтр предложений: объект с полями kind, category, status, campaign, group, decision, text',
  bulkRequired: 'Передайте filter и decision',
  changesRequired: 'Передайте changes: от 1 до 500 изменений',
  changeInvalid: 'Изменение: объект с полями id, decision и (для исправления объявления) value',
  levelInvalid: 'Уровень: campaign, group, ad или keyword',
  sectionInvalid: 'Раздел: clusters, duplicates, intersections, relevance, collect_data, dropped_negatives или keyword_verdicts',
  findingNotFound: 'Замечание не найдено в результатах анализа',
  resultTooLarge: 'Результат анализа слишком большой, чтобы его сохранить. Токены возвращены на баланс',
} as const;

/** AI plan: the language model's action plan for a completed audit (API answers and run errors). */
export const aiPlanMessages = {
  notConfigured: 'ИИ-анализ недоступен: языковая модель на этом сервере не настроена (LLM_API_URL). Ниже — план действий, собранный из проверок аудита без языковой модели',
  queueUnavailable: 'Очередь задач недоступна. Попробуйте позже',
  planNotFound: 'ИИ-план не найден',
  analysisNotCompleted: 'ИИ-план строится по завершённому аудиту: дождитесь окончания анализа',
  idempotencyKeyInvalid: 'Ключ идемпотентности: от 1 до 200 символов',
  idempotencyKeyReused: 'Этот ключ идемпотентности уже использован для другого ИИ-плана',
  insufficientTokensDetail: 'Стоимость ИИ-плана — {required} токенов, на балансе {balance}. Пополните баланс на странице «Токены»',
  debitReason: 'ИИ-план по аудиту проекта «{project}»',
  refundNote: 'Токены возвращены на баланс',
  timeout: 'Языковая модель не ответила за {seconds} с',
  network: 'Не удалось связаться с языковой моделью: {reason}',
  httpError: 'Языковая модель ответила ошибкой (HTTP {status}){detail}',
  badEnvelope: 'Ответ сервера языковой модели не похож на ответ chat completions (нет choices[0].message.content)',
  emptyAnswer: 'Языковая модель вернула пустой ответ',
  notJson: 'Языковая модель вернула ответ не в формате JSON',
  badShape: 'Ответ языковой модели не соответствует формату плана: {problems}',
  unknownFindings: 'Ответ языковой модели ссылается на замечания, которых нет в аудите: {refs}',
  auditGone: 'Аудит, по которому строился план, больше недоступен',
  interrupted: 'Построение ИИ-плана прервано перезапуском сервера',
  failed: 'Не удалось построить ИИ-план',
} as const;

/**
 * valibot's own messages in Russian, for every rule a schema gives no message of its own
 * (src/contract/validation-language.ts installs them): no validation error is ever English.
 * `{value}` is the rule's requirement (a length, a bound, the allowed values).
 */
export const genericValidationMessages = {
  string: 'Ожидается строка',
  number: 'Ожидается число',
  boolean: 'Ожидается логическое значение (true или false)',
  object: 'Ожидается объект',
  array: 'Ожидается список',
  null: 'Ожидается null',
  literal: 'Недопустимое значение: ожидается {value}',
  picklist: 'Недопустимое значение: выберите одно из {value}',
  union: 'Недопустимое значение',
  date: 'Ожидается дата',
  missingKey: 'Обязательное поле',
  unknownKey: 'Неизвестное поле',
  minLengthText: 'Не короче {value} символов',
  maxLengthText: 'Не длиннее {value} символов',
  minLengthList: 'Не меньше {value} элементов',
  maxLengthList: 'Не больше {value} элементов',
  nonEmpty: 'Заполните поле',
  email: 'Некорректный email',
  uuid: 'Некорректный идентификатор',
  url: 'Некорректный адрес',
  regex: 'Значение в неверном формате',
  integer: 'Введите целое число',
  finite: 'Введите число',
  minValue: 'Не меньше {value}',
  maxValue: 'Не больше {value}',
  gtValue: 'Больше {value}',
  ltValue: 'Меньше {value}',
  other: 'Некорректное значение',
  /** The contract's text rule (src/contract/text.ts): NUL and other control characters never reach the database. */
  controlCharacters: 'Текст содержит недопустимые управляющие символы (например, нулевой байт): удалите их',
} as const;
/** A part of the app that a deploy replaced could not be loaded (src/lib/chunk-reload.ts). */
export const appVersionMessages = {
  reloading: 'Загружаем новую версию приложения…',
  title: 'Вышла новая версия приложения',
  text: 'Часть приложения не загрузилась: на сервере уже новая версия. Обновите страницу, чтобы продолжить.',
  reloadButton: 'Обновить',
};
