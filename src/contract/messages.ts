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
} as const;
