/** CSS-only spinner: shown before antd is loaded, so it must not depend on it. */
export function PageSpinner() {
  return (
    <div className="page-spinner" role="progressbar" aria-busy="true">
      <span />
    </div>
  );
}
