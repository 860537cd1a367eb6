/** The job queue (pg-boss) as the rest of the app sees it. */
export interface JobQueue {
  send(name: string, data: object, options?: { singletonKey?: string }): Promise<string | null>;
  stop(): Promise<void>;
}
