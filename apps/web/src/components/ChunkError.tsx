import { t } from '@/lib/i18n.ts';

/** Shown in place of a page whose code could not be loaded; plain markup so it cannot fail itself. */
export function ChunkError({ error }: { error: Error }) {
  return (
    <div className="chunk-error" role="alert">
      <h3>{t('frame.chunkError.title')}</h3>
      <p>{t('frame.chunkError.body')}</p>
      <pre>{error.message}</pre>
      <button type="button" className="chunk-error__reload" onClick={() => location.reload()}>
        {t('common.reload')}
      </button>
    </div>
  );
}
