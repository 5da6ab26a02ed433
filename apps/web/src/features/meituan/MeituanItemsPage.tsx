export { default } from './MeituanInfoPage.tsx';
