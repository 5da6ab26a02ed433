export { changedFields, staleOf, type FieldChange } from './changes.ts';
export { useStaleSave } from './useStaleSave.tsx';
