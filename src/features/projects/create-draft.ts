/**
 * The two-step creation form keeps what the user has typed in sessionStorage: a reload on step 2
 * keeps step 1's answers and the import preview, and closing the tab forgets them.
 */
import { redirect } from '@tanstack/react-router';
import * as v from 'valibot';
import { ProjectStep1Schema, type ImportPreview, type ProjectStep1, type ProjectStep1Input } from '@contract/projects.js';
import { tabJson } from '@/lib/storage';
import { CREATE_DIRECT_JOB_KEY, saveDirectJobId } from './direct-import-job';

export const STEP1_STORAGE_KEY = 'project_create_step1';
export const PREVIEW_STORAGE_KEY = 'project_create_preview';

// Storage blocked: the form still works, it just does not survive a reload.
const read = tabJson.get;
const write = tabJson.set;

/** What step 1 holds as typed (it may be incomplete or invalid). */
export const readStep1Input = (): Partial<ProjectStep1Input> | null => read<Partial<ProjectStep1Input>>(STEP1_STORAGE_KEY);
export const saveStep1Input = (input: Partial<ProjectStep1Input>) => write(STEP1_STORAGE_KEY, input);

/** Step 1's data when it passes the rules, else null: the gate of step 2 (spec section 2). */
export function validStep1(): ProjectStep1 | null {
  const input = readStep1Input();
  if (!input) return null;
  const result = v.safeParse(ProjectStep1Schema, input);
  return result.success ? result.output : null;
}

/** beforeLoad of step 2: valid step 1 data goes into the route context, anything else back to step 1. */
export function requireValidStep1(): { step1: ProjectStep1 } {
  const step1 = validStep1();
  if (!step1) throw redirect({ to: '/projects/create/step1', replace: true });
  return { step1 };
}

export const readPreview = () => read<ImportPreview>(PREVIEW_STORAGE_KEY);
export const savePreview = (preview: ImportPreview | null) => write(PREVIEW_STORAGE_KEY, preview);

export function clearCreateDraft(): void {
  write(STEP1_STORAGE_KEY, null);
  write(PREVIEW_STORAGE_KEY, null);
  saveDirectJobId(CREATE_DIRECT_JOB_KEY, null);
}
