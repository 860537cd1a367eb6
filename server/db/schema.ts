import type { CoreTables } from './tables/core.js';
import type { ProjectTables } from './tables/projects.js';
import type { AnalysisTables } from './tables/analysis.js';
import type { PageCheckTables } from './tables/page-check.js';
import type { AiPlanTables } from './tables/ai-plans.js';
import type { ImportJobTables } from './tables/import-jobs.js';
import type { PaymentTables } from './tables/payments.js';
import type { DirectTables } from './tables/direct.js';
import type { MonitoringTables } from './tables/monitoring.js';
import type { AuditChangeTables } from './tables/audit-changes.js';
import type { ChangeTables } from './tables/changes.js';
import type { ReportTables } from './tables/reports.js';

/** The whole database as Kysely sees it: each domain declares its own tables in `tables/`. */
export interface Database extends CoreTables, ProjectTables, AnalysisTables, PageCheckTables, AiPlanTables, ImportJobTables, PaymentTables, DirectTables, MonitoringTables, AuditChangeTables, ChangeTables, ReportTables {}
