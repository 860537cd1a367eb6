/** Tables of analyses and their results (filled by the analysis domain). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AnalysisTables {}
