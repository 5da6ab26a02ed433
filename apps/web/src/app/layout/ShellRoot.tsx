/**
 * Everything the logged-in frame needs and the login page does not: React Query, antd's
 * theme and feedback context, and the shell itself. One lazy chunk after the guard.
 */
import { QueryClientProvider } from '@tanstack/react-query';
// antd's prebuilt component styles (zero-runtime theme, see docs/decisions.md): a CSS file of
// the shell chunk, fetched with it (and prefetched on the login page) instead of generated.
import 'antd/dist/antd.css';
import { queryClient } from '@/lib/query.ts';
import { ThemeProvider } from '../theme/ThemeProvider.tsx';
import Shell from './Shell.tsx';

export default function ShellRoot() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <Shell />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
