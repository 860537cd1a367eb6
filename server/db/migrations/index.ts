import type { Migration } from 'kysely';
import * as core from './0001_core.js';
import * as projects from './0010_projects.js';
import * as analysis from './0020_analysis.js';
import * as relevanceAnalyses from './0030_relevance.js';
import * as aiPlans from './0040_ai_plans.js';
import * as inputHardening from './0050_input_hardening.js';
import * as importJobs from './0054_import_jobs.js';
import * as refreshGrace from './0052_refresh_grace.js';
import * as analysisRows from './0060_analysis_rows.js';
import * as resultChunks from './0070_result_chunks.js';
import * as importDraftRows from './0075_import_draft_rows.js';
import * as admin from './0080_admin.js';
import * as payments from './0085_payments.js';
import * as aiPlanCancel from './0090_ai_plan_cancel.js';
import * as sessionNotifications from './0095_session_notifications.js';
import * as resultDocumentsJson from './0100_result_documents_json.js';
import * as entityNames from './0105_entity_names.js';
import * as resultsPageIndexes from './0107_results_page_indexes.js';
import * as importRowsJson from './0109_import_rows_json.js';
import * as changeSetsMigration from './0140_change_sets.js';
import * as decisionCountsMigration from './0110_decision_counts.js';
import * as resultRowsWithoutForeignKeysMigration from './0111_result_rows_without_foreign_keys.js';
import * as decidedPositionsMigration from './0112_decided_positions.js';
import * as tokenSourcesMigration from './0113_token_sources.js';
import * as directConnectionsMigration from './0117_direct_connections.js';
import * as analysisLegacyResultsMigration from './0118_analysis_legacy_results.js';
import * as monitoringMigration from './0130_monitoring.js';
import * as auditChangeCountsMigration from './0135_audit_change_counts.js';
import * as clientReportsMigration from './0145_client_reports.js';
import * as agencyClientImportsMigration from './0156_agency_client_imports.js';
import * as pageChecksMigration from './0160_page_checks.js';
import * as changeBidsSitesSelectionMigration from './0170_change_bids_sites_selection.js';
import * as acceptedPositionsMigration from './0175_accepted_positions.js';
import * as searchBlocksMigration from './0185_search_blocks.js';
import * as lighterResultRowsMigration from './0190_lighter_result_rows.js';

/**
 * Every migration, in order. Listed by hand (not read from the folder) so the same list works from
 * TypeScript sources in tests and from the compiled build. Add new ones at the end: `NNNN_name`.
 */
export const migrations: Record<string, Migration> = {
  '0001_core': core,
  '0010_projects': projects,
  '0020_analysis': analysis,
  '0030_relevance': relevanceAnalyses,
  '0040_ai_plans': aiPlans,
  '0050_input_hardening': inputHardening,
  '0052_refresh_grace': refreshGrace,
  '0054_import_jobs': importJobs,
  '0060_analysis_rows': analysisRows,
  '0070_result_chunks': resultChunks,
  '0075_import_draft_rows': importDraftRows,
  '0080_admin': admin,
  '0085_payments': payments,
  '0090_ai_plan_cancel': aiPlanCancel,
  '0095_session_notifications': sessionNotifications,
  '0100_result_documents_json': resultDocumentsJson,
  '0105_entity_names': entityNames,
  '0107_results_page_indexes': resultsPageIndexes,
  '0109_import_rows_json': importRowsJson,
  '0110_decision_counts': decisionCountsMigration,
  '0111_result_rows_without_foreign_keys': resultRowsWithoutForeignKeysMigration,
  '0112_decided_positions': decidedPositionsMigration,
  '0113_token_sources': tokenSourcesMigration,
  '0117_direct_connections': directConnectionsMigration,
  '0118_analysis_legacy_results': analysisLegacyResultsMigration,
  '0130_monitoring': monitoringMigration,
  '0135_audit_change_counts': auditChangeCountsMigration,
  '0140_change_sets': changeSetsMigration,
  '0145_client_reports': clientReportsMigration,
  '0156_agency_client_imports': agencyClientImportsMigration,
  '0160_page_checks': pageChecksMigration,
  '0170_change_bids_sites_selection': changeBidsSitesSelectionMigration,
  '0175_accepted_positions': acceptedPositionsMigration,
  '0185_search_blocks': searchBlocksMigration,
  '0190_lighter_result_rows': lighterResultRowsMigration,
};
