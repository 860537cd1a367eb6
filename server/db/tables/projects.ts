/** Tables of projects, campaigns and imports (filled by the projects domain). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ProjectTables {}
