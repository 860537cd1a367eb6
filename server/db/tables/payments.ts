import type { ColumnType, Generated } from 'kysely';
import type { PaymentMethod, PaymentStatus, Requisites } from '../../../contract/payments.js';
import type { CreatedAt, Timestamp } from './columns.js';

/** bigint columns come back as strings from pg; kopecks fit a JS number comfortably. */
type Kopecks = ColumnType<string | number, number | undefined, number>;

export interface TokenPaymentsTable {
  id: Generated<string>;
  user_id: string;
  organization_id: string | null;
  method: PaymentMethod;
  status: ColumnType<PaymentStatus, PaymentStatus | undefined, PaymentStatus>;
  package_id: string;
  tokens: number;
  amount_kopecks: Kopecks;
  refunded_kopecks: Kopecks;
  idempotency_key: string;
  /** YooKassa's payment id (card payments). */
  provider_payment_id: string | null;
  confirmation_url: string | null;
  invoice_number: ColumnType<string | number | null, unknown, never>;
  requisites: ColumnType<Requisites | null, string | null | undefined, string | null>;
  cancel_reason: string | null;
  decided_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  paid_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface TokenPaymentRefundsTable {
  provider_refund_id: string;
  payment_id: string;
  amount_kopecks: Kopecks;
  tokens_debited: number;
  created_at: CreatedAt;
}

export interface OrganizationRequisitesTable {
  organization_id: string;
  name: string;
  inn: string;
  kpp: ColumnType<string, string | undefined, string>;
  address: string;
  updated_at: Timestamp;
}

export interface PaymentTables {
  token_payments: TokenPaymentsTable;
  token_payment_refunds: TokenPaymentRefundsTable;
  organization_requisites: OrganizationRequisitesTable;
}
