export { changedFields, staleOf, type FieldChange } from './changes.ts';
export { useStaleSave } from './useStaleSave.tsx';
export { mergeRecords, type Merge } from './merge.ts';
