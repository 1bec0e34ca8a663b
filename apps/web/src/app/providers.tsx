import * as React from 'react';
import { QueryClientProvider } from '@tanstack/react-query';

import { queryClient } from '@/lib/query-client';
import { Toaster } from '@/components/ui/toaster';
import { ThemeProvider } from './theme-provider';

/**
 * Everything the pages rely on: data cache, theme and the toast area. Tooltips are provided by the
 * signed-in shell (AppShell), the only place that shows them, which keeps Radix's positioning code
 * (popper, floating-ui) out of the first page.
 */
export function Providers({ children }: { children: React.ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        {children}
        <Toaster />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
