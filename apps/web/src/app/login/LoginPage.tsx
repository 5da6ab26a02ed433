/**
 * Login (spec §4, §5 "the username is required"): token into the cookie, then the guard
 * loads the user, routes and the permission-gated counts. Plain markup on purpose: the
 * login route must stay under its bundle budget, so antd is loaded only with the shell.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { switchableLocales, useI18n, type Locale } from '@/lib/i18n.ts';
import { login, useSession } from '@/lib/session.ts';
import { getToken } from '@/lib/storage.ts';
import { feedback } from '@/lib/feedback.ts';
import { safeRedirect } from '../paths.ts';
import { prefetchShell, whenIdle } from '../prefetch.ts';

const labels: Record<Locale, string> = { 'zh-chs': '简体中文', en: 'English', ja: '日本語', 'zh-cht': '繁體中文' };

type Field = 'name' | 'password';

export default function LoginPage() {
  const { t, locale, setLocale } = useI18n();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { user } = useSession();
  const id = useId();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState<Record<Field, boolean>>({ name: false, password: false });
  const [busy, setBusy] = useState(false);
  /** A failed attempt left an error toast; the successful one must not carry it onto home. */
  const failed = useRef(false);
  const redirect = safeRedirect(params.get('redirect'));

  // While the user types: the frame and the page they will land on.
  useEffect(() => whenIdle(() => prefetchShell(redirect.split('?')[0])), [redirect]);

  const errors: Record<Field, string | null> = {
    name: name.trim() ? null : t('frame.login.usernameRequired'),
    password: password ? null : t('frame.login.passwordRequired'),
  };

  useEffect(() => {
    document.title = `${t('frame.titlePrefix')} - ${t('frame.login.submit')}`;
  }, [t]);

  // Already logged in (e.g. back button): go on.
  useEffect(() => {
    if (user && getToken()) void navigate(redirect, { replace: true });
  }, [user, navigate, redirect]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched({ name: true, password: true });
    if (errors.name || errors.password || busy) return;
    setBusy(true);
    // The last attempt's error toast goes now, so that it has left before home shows.
    if (failed.current) void feedback().then(({ message }) => message.destroy());
    try {
      await login(name.trim(), password);
      void navigate(redirect, { replace: true });
    } catch {
      // The client already showed the server's message (red toast).
      failed.current = true;
      setBusy(false);
    }
  };

  const field = (f: Field, label: string, input: React.ReactNode) => (
    <div className={`login__field${touched[f] && errors[f] ? ' has-error' : ''}`}>
      <label htmlFor={`${id}-${f}`}>{label}</label>
      {input}
      <div className="login__error" id={`${id}-${f}-error`} role="alert" data-testid={`login-${f}-error`}>
        {touched[f] ? errors[f] : null}
      </div>
    </div>
  );

  return (
    <div className="login">
      <div className="login__langs">
        {switchableLocales.map((l) => (
          <button
            type="button"
            key={l}
            className={l === locale ? 'is-active' : undefined}
            aria-pressed={l === locale}
            onClick={() => setLocale(l)}
            data-testid={`login-lang-${l}`}
          >
            {labels[l]}
          </button>
        ))}
      </div>
      <main className="login__card">
        <img src={`${import.meta.env.BASE_URL}logo.svg`} alt="" width={56} height={56} />
        <h1 className="login__title">{t('frame.login.title')}</h1>
        <p className="login__subtitle">{t('frame.login.subtitle')}</p>
        <form onSubmit={(e) => void onSubmit(e)} noValidate>
          {field(
            'name',
            t('frame.login.username'),
            <input
              id={`${id}-name`}
              name="name"
              autoComplete="username"
              autoFocus
              maxLength={64}
              value={name}
              aria-invalid={Boolean(touched.name && errors.name)}
              aria-describedby={`${id}-name-error`}
              data-testid="login-name"
              onChange={(e) => setName(e.target.value)}
              onBlur={() => setTouched((x) => ({ ...x, name: true }))}
            />,
          )}
          {field(
            'password',
            t('frame.login.password'),
            <input
              id={`${id}-password`}
              name="password"
              type="password"
              autoComplete="current-password"
              maxLength={256}
              value={password}
              aria-invalid={Boolean(touched.password && errors.password)}
              aria-describedby={`${id}-password-error`}
              data-testid="login-password"
              onChange={(e) => setPassword(e.target.value)}
              onBlur={() => setTouched((x) => ({ ...x, password: true }))}
            />,
          )}
          <button type="submit" className="login__submit" disabled={busy} aria-busy={busy} data-testid="login-submit">
            {busy && <span className="login__spinner" />}
            {t('frame.login.submit')}
          </button>
        </form>
        <p className="login__version">v{__APP_VERSION__}</p>
      </main>
    </div>
  );
}
