export { useImportJob, type ImportJobOptions } from './useImportJob.ts';
export { ImportDrop, ImportErrors, ImportProgress } from './ImportSteps.tsx';
